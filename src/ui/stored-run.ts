/**
 * A past run as the Rollouts screen shows it, from its records: every rollout
 * with its status, spend, time and bug; a rollout's transcript made from its
 * trajectory when it is looked at (again only once the core reads a grown file).
 */
import { describeWhere } from '../agent/events.js';
import type { Trajectory } from '../agent/trajectory.js';
import { CHECK_NAMES } from '../bugs/check-types.js';
import { imagesLabel } from '../pipeline/corpus.js';
import { isResumable, type WorkbenchCore } from '../pipeline/workbench-core.js';
import type { RolloutRecord, RunRecord } from '../store/records.js';
import { applyRolloutEvent, emptyRollout, tagOf, type RolloutStatus, type RolloutView, type RunView } from './run-state.js';

const VERDICTS: Record<string, string> = { p: 'pass', f: 'fail', s: 'skipped', c: 'cancelled' };

/** What a stored run's view is read from. */
export type RunRecords = Pick<WorkbenchCore, 'rolloutsOf' | 'bug' | 'attempt'>;

function rolloutView(records: RunRecords, record: RolloutRecord): RolloutView {
  const view = emptyRollout(tagOf(record.id));
  const bug = record.bugId ? records.bug(record.bugId) : undefined;
  const status: RolloutStatus = record.status === 'pending' ? 'waiting' : record.status;
  return {
    ...view,
    status,
    step: record.steps,
    costUsd: record.costUsd,
    tokens: record.tokens,
    startedAt: record.startedAt ? Date.parse(record.startedAt) : null,
    durationMs: record.status === 'running' ? null : record.durationMs,
    lastAction: record.detail ?? '',
    checks: bug?.check ? [...bug.check.verdicts].map((v, i) => ({ name: CHECK_NAMES[i] ?? '?', verdict: VERDICTS[v] ?? '?' })) : [],
    checking: bug?.status === 'checking' ? 'checks' : null,
    where: describeWhere({ task: record.task ?? undefined, node: record.node ?? undefined, engine: record.engine ?? undefined }),
    bug: bug ? { id: bug.id, valid: bug.check?.valid === true, status: bug.status, failedCheck: bug.check?.failedCheck ?? null } : undefined,
    attempt: judgedAttempt(records, record.id),
  };
}

/** A solver rollout's attempt once it has a result. */
function judgedAttempt(records: RunRecords, id: string): RolloutView['attempt'] {
  const attempt = records.attempt(id);
  return attempt && (attempt.status === 'evaluated' || attempt.status === 'unsubmitted') ? { solved: attempt.solved === true, status: attempt.status } : undefined;
}

/** What a run did, for its header: an injection's strategy, or the bug a solve run solved and its solvers ("mix": the offline solvers in turn). */
function runWhat(run: RunRecord): string {
  if (run.kind !== 'solve') return run.strategy;
  const bug = typeof run.options.bugId === 'string' ? ` ${run.options.bugId}` : '';
  return `solving${bug} (${run.strategy === 'mix' ? 'offline solver mix' : run.strategy})`;
}

export function storedRunView(records: RunRecords, run: RunRecord): RunView {
  const views = records.rolloutsOf(run.id).map((r) => rolloutView(records, r));
  return {
    image: imagesLabel(run),
    strategy: runWhat(run),
    policy: run.policy,
    tags: views.map((v) => v.tag),
    rollouts: Object.fromEntries(views.map((v) => [v.tag, v])),
    focus: 0,
    done: run.status !== 'running',
    runId: run.id,
    resumable: isResumable(run),
    cluster: run.cluster ? `Slurm job ${run.cluster.jobId}, ${run.cluster.tasks} task${run.cluster.tasks === 1 ? '' : 's'}` : undefined,
    error: run.error ?? undefined,
  };
}

const transcripts = new WeakMap<Trajectory, RolloutView['transcript']>();

/** The transcript of a stored rollout, from its trajectory (made again only when the core read the file anew). */
export function storedTranscript(core: Pick<WorkbenchCore, 'trajectory'>, record: RolloutRecord): RolloutView['transcript'] {
  const trajectory = core.trajectory(record.id);
  if (!trajectory) return [];
  let transcript = transcripts.get(trajectory);
  if (!transcript) {
    transcript = trajectory.events.reduce((v, event) => applyRolloutEvent(v, event), emptyRollout(tagOf(record.id))).transcript;
    transcripts.set(trajectory, transcript);
  }
  return transcript;
}
