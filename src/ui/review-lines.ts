/**
 * What the Review screen's detail pane shows, as plain styled lines (pure, so
 * it is tested without a terminal): the summary, the nine checks, the diffs
 * coloured, the tests; and a bug's row in the list.
 */
import type { BugDetails } from '../pipeline/bug-details.js';
import type { BugRecord } from '../store/records.js';
import { focusMark } from './focus.js';
import { clip } from './line-fit.js';
import type { DetailView } from './review-state.js';

export interface StyledLine {
  text: string;
  color?: 'green' | 'red' | 'cyan' | 'yellow' | 'magenta' | 'gray';
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export const VERDICT_MARK: Record<string, string> = { pass: '✓', fail: '✗', skipped: '·', cancelled: '○' };
const VERDICT_COLOR: Record<string, StyledLine['color']> = { pass: 'green', fail: 'red', skipped: 'gray', cancelled: 'yellow' };

export const STATUS_COLOR: Record<string, StyledLine['color']> = {
  valid: 'green',
  accepted: 'cyan',
  invalid: 'red',
  rejected: 'magenta',
  duplicate: 'gray',
  cancelled: 'yellow',
  checking: 'yellow',
};

/** A bug id fitted to `width`: cut in the middle, so the unique hash at its end stays. */
export function fitId(id: string, width: number): string {
  if (id.length <= width) return id.padEnd(width);
  const tail = id.slice(id.lastIndexOf('-'));
  if (tail.length + 2 > width) return `${id.slice(0, Math.max(0, width - 1))}…`;
  return `${id.slice(0, width - tail.length - 1)}…${tail}`;
}

/** One bug in the list, fitted to `width`; ids get `idWidth` (the longest listed) when there is room. */
export function bugRow(bug: BugRecord, width: number, idWidth = bug.id.length): string {
  const f2p = bug.check?.valid ? `${bug.check.failToPass} F2P` : bug.check?.failedCheck ? `✗ ${bug.check.failedCheck}` : '';
  // The id matters most: the other columns are kept short (a long strategy or check name is cut).
  const fixed = ` ${bug.status.padEnd(9)} ${clip(bug.strategy, 11).padEnd(11)} o${bug.order} ${clip(f2p, 10).padEnd(10)} ${bug.createdAt.slice(5, 16).replace('T', ' ')}`;
  // The id keeps at least 16 characters; on a narrow terminal the row's tail goes first.
  const row = fitId(bug.id, Math.max(16, Math.min(idWidth, width - fixed.length))) + fixed;
  return clip(row, width);
}

function when(iso: string): string {
  return iso.replace('T', ' ').slice(0, 19);
}

function summaryLines(d: BugDetails): StyledLine[] {
  const r = d.record;
  const lines: StyledLine[] = [
    { text: `${r.id}  ${r.status.toUpperCase()}${r.duplicateOf ? ` of ${r.duplicateOf}` : ''}`, bold: true, color: STATUS_COLOR[r.status] },
    { text: `image     ${r.image} — ${r.repo} at ${r.baseCommit.slice(0, 12)}` },
    { text: `made by   ${r.strategy} · ${r.model} · order ${r.order}${r.parentId ? ` · parent ${r.parentId}` : ''}` },
    { text: `created   ${when(r.createdAt)}${r.rollout ? ` by ${r.rollout}` : ''}` },
  ];
  if (r.check) {
    const marks = [...r.check.verdicts].map((v) => ({ p: '✓', f: '✗', s: '·', c: '○' })[v] ?? '?').join('');
    lines.push({ text: `checks    ${marks}  ${r.check.valid ? `valid: ${r.check.failToPass} FAIL_TO_PASS, ${r.check.passToPass} PASS_TO_PASS` : r.check.cancelled ? 'cancelled before a verdict' : `failed ${r.check.failedCheck}`}` });
    if (!r.check.valid && r.check.reason) lines.push({ text: `          ${r.check.reason}`, color: 'red' });
    if (r.check.parserUnverified) lines.push({ text: `parser    UNVERIFIED — ${r.check.parserUnverified}`, color: 'yellow' });
  } else lines.push({ text: 'checks    none yet', dim: true });
  if (r.solve) {
    const s = r.solve;
    lines.push({ text: `solving   ${s.solved} of ${s.attempts} attempt(s) solved · solve rate ${s.solveRate.toFixed(3)} · injection reward ${s.injectReward.toFixed(3)} (α ${s.alpha})` });
  } else if (r.check?.valid) lines.push({ text: 'solving   no attempts yet (s on Checks, or `bugbench solve`)', dim: true });
  for (const review of d.reviews) {
    lines.push({ text: `review    ${review.decision} by ${review.by} at ${when(review.at)}${review.reason ? `: ${review.reason}` : ''}`, color: review.decision === 'accepted' ? 'cyan' : 'magenta' });
  }
  lines.push({ text: `tests     ${d.testFiles.join(', ')}` });
  lines.push({ text: `artifact  ${d.artifactDir}`, dim: true });
  if (d.trajectory) lines.push({ text: `agent log ${d.trajectory}`, dim: true });
  return lines;
}

function checkLines(d: BugDetails, cursor: number): StyledLine[] {
  if (!d.checks) return [{ text: 'no check report yet', dim: true }];
  return d.checks.map((c, i) => ({
    text: `${focusMark(i === cursor)} ${VERDICT_MARK[c.verdict] ?? '?'} ${c.name.padEnd(17)} ${(c.durationMs / 1000).toFixed(1).padStart(5)} s  ${c.reason}`,
    color: VERDICT_COLOR[c.verdict],
    inverse: i === cursor,
  }));
}

export function diffLines(title: string, diff: string): StyledLine[] {
  const lines: StyledLine[] = [{ text: `── ${title}`, bold: true }];
  if (diff.trim() === '') return [...lines, { text: '(empty)', dim: true }];
  for (const line of diff.replace(/\n$/, '').split('\n')) {
    if (line.startsWith('diff --git') || line.startsWith('+++') || line.startsWith('---')) lines.push({ text: line, bold: true });
    else if (line.startsWith('@@')) lines.push({ text: line, color: 'cyan' });
    else if (line.startsWith('+')) lines.push({ text: line, color: 'green' });
    else if (line.startsWith('-')) lines.push({ text: line, color: 'red' });
    else lines.push({ text: line, dim: line.startsWith('index ') });
  }
  return lines;
}

function testLines(d: BugDetails): StyledLine[] {
  if (!d.record.check?.valid) return [{ text: 'FAIL_TO_PASS and PASS_TO_PASS come with a valid check', dim: true }];
  return [
    { text: `FAIL_TO_PASS (${d.FAIL_TO_PASS.length})`, bold: true, color: 'red' },
    ...d.FAIL_TO_PASS.map((t) => ({ text: `  ${t}` })),
    { text: `PASS_TO_PASS (${d.PASS_TO_PASS.length})`, bold: true, color: 'green' },
    ...d.PASS_TO_PASS.map((t) => ({ text: `  ${t}`, dim: true })),
    ...(d.flaky.length > 0
      ? [{ text: `flaky, in neither list (${d.flaky.length})`, bold: true, color: 'yellow' as const }, ...d.flaky.map((f) => ({ text: `  ${f.id}: ${f.flips} flip(s)`, dim: true }))]
      : []),
  ];
}

export function detailLines(d: BugDetails, view: DetailView, checkCursor: number): StyledLine[] {
  switch (view) {
    case 'summary':
      return summaryLines(d);
    case 'checks':
      return checkLines(d, checkCursor);
    case 'diff':
      return [
        ...diffLines('bug_inject.diff', d.diffs.bugInject),
        { text: '' },
        ...diffLines('test_weaken.diff', d.diffs.testWeaken),
        ...(d.diffs.predPatch !== null ? [{ text: '' }, ...diffLines('pred_patch.diff', d.diffs.predPatch)] : []),
      ];
    case 'tests':
      return testLines(d);
  }
}
