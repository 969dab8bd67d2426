/**
 * What the store already holds about a bug's solving, for the Checks screen:
 * its latest solve run's attempts and rewards, and the higher-order bugs of
 * its family, whether they were made here or with `bugbench solve` and
 * `bugbench higher-order`.
 */
import { tagOf } from '../store/records.js';
import type { AttemptRecord, BugRecord } from '../store/records.js';
import type { WorkbenchCore } from '../pipeline/workbench-core.js';
import type { ChecksState, HigherChild } from './checks-state.js';
import { emptyRollout, newRunView } from './run-state.js';

const MARKS: Record<string, string> = { p: '✓', f: '✗', s: '·', c: '○' };

/** The latest solve run of the bug, as the solve panel shows a finished one. */
export function storedSolve(bug: BugRecord, attempts: AttemptRecord[]): ChecksState['solve'] {
  const summary = bug.solve;
  if (!summary) return null;
  const mine = attempts.filter((a) => a.runId === summary.runId).sort((a, b) => a.index - b.index);
  if (mine.length === 0) return null;
  const view = newRunView(bug.image, 'solve', mine[0]!.policy ?? '', 0, 'a');
  const tags = mine.map((a) => tagOf(a.id));
  const judged = mine.filter((a) => a.status === 'evaluated' || a.status === 'unsubmitted');
  return {
    view: { ...view, runId: summary.runId, tags, rollouts: Object.fromEntries(tags.map((tag) => [tag, { ...emptyRollout(tag), status: 'submitted' as const }])), done: true },
    solveRate: summary.solveRate,
    injectReward: summary.injectReward,
    rewards: judged.map((a) => (a.solved ? '+' : '−')).join(''),
    results: Object.fromEntries(mine.map((a) => [tagOf(a.id), { solver: a.solver, status: a.status, solved: a.solved === true, reward: a.reward, failing: a.failing.length }])),
  };
}

/** The higher-order bugs of the bug's family: its own children, or, for a child, its parent's. */
export function storedHigher(core: Pick<WorkbenchCore, 'bugs' | 'attempt'>, bug: BugRecord): ChecksState['higher'] {
  const all = core.bugs();
  const parent = all.some((b) => b.parentId === bug.id) ? bug.id : bug.parentId;
  if (!parent) return null;
  const children: HigherChild[] = all
    .filter((b) => b.parentId === parent)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((b) => ({
      id: b.id,
      attempt: b.attemptId ?? '',
      solver: (b.attemptId ? core.attempt(b.attemptId)?.solver : undefined) ?? '?',
      marks: [...(b.check?.verdicts ?? '')].map((v) => MARKS[v] ?? '?').join(''),
      status: b.status,
    }));
  return children.length > 0 ? { parent, children, skipped: [], busy: false } : null;
}

/** Changes whenever the store's solve or higher-order results for the bug do: the screen reads them again. */
export function storedKey(core: Pick<WorkbenchCore, 'bugs'>, bug: BugRecord | undefined): string {
  if (!bug) return '';
  const family = core.bugs().filter((b) => b.parentId === bug.id || (bug.parentId !== null && b.parentId === bug.parentId));
  return [bug.solve?.at ?? '', ...family.map((b) => `${b.id}:${b.status}:${b.check?.verdicts ?? ''}`)].join('|');
}
