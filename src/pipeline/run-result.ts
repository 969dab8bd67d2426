/** What an injection run made, read from the store: every rollout and every bug, in rollout order. */
import type { BugRecord } from '../store/records.js';
import { countsAsValid, trajectoryOf } from '../store/records.js';
import { RecordNotFoundError, type Store } from '../store/store.js';
import { bugDir } from './bug-checks.js';
import type { InjectedBug } from './events.js';
import type { RunRecord } from '../store/records.js';

export interface RolloutSummary {
  rollout: string;
  reason: string;
  steps: number;
  costUsd: number;
  durationMs: number;
  trajectory: string;
  bugId: string | null;
  detail?: string;
  /** A rollout of a run over a corpus: its image. */
  image?: string;
}

/** What a run yielded: rollouts, submissions, features that broke something (FeatAdd), valid bugs. */
export interface InjectYield {
  rollouts: number;
  submitted: number;
  featuresThatBroke: number | null;
  valid: number;
}

export interface InjectResult {
  runId: string;
  status: RunRecord['status'];
  bugs: InjectedBug[];
  rollouts: RolloutSummary[];
  yield: InjectYield;
}

export function injectedBug(store: Store, bug: BugRecord): InjectedBug {
  const trajectory = trajectoryOf(bug);
  return {
    id: bug.id,
    rollout: bug.rollout ?? '',
    valid: bug.check?.valid === true,
    status: bug.status,
    failedCheck: bug.check?.valid ? null : (bug.check?.failedCheck ?? (bug.check?.cancelled ? 'cancelled' : 'checks did not run')),
    artifactDir: bugDir(store, bug.id),
    trajectory: trajectory ? store.abs(trajectory) : '',
  };
}

/** What a run made, from the store: every rollout and every bug, in rollout order. */
export function runResult(store: Store, runId: string): InjectResult {
  const run = store.get('runs', runId);
  if (!run) throw new RecordNotFoundError('runs', runId);
  const byIndex = (a: { index: number }, b: { index: number }) => a.index - b.index;
  const rollouts = store
    .all('rollouts')
    .filter((r) => r.runId === runId)
    .sort(byIndex);
  const bugs = rollouts.flatMap((r) => {
    const bug = r.bugId ? store.get('bugs', r.bugId) : undefined;
    return bug ? [injectedBug(store, bug)] : [];
  });
  const featadd = run.strategy === 'featadd';
  return {
    runId,
    status: run.status,
    bugs,
    yield: {
      rollouts: rollouts.length,
      // A FeatAdd rollout that made no bug submitted a feature; an injector that found no bug submitted nothing.
      submitted: rollouts.filter((r) => r.status === 'submitted' || (featadd && r.status === 'no-bug')).length,
      featuresThatBroke: featadd ? rollouts.filter((r) => r.bugId !== null).length : null,
      valid: bugs.filter((b) => countsAsValid(b.status)).length,
    },
    rollouts: rollouts.map((r) => ({
      rollout: r.id,
      reason: r.status,
      steps: r.steps,
      costUsd: r.costUsd,
      durationMs: r.durationMs,
      trajectory: store.abs(r.trajectory),
      bugId: r.bugId,
      ...(r.detail ? { detail: r.detail } : {}),
      ...(r.image ? { image: r.image } : {}),
    })),
  };
}
