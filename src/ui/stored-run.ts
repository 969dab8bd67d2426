/**
 * A past run as the Rollouts screen shows it, read from the store: every
 * rollout with its status, spend, time and bug; a rollout's transcript read
 * from its trajectory when it is looked at (and kept until the file grows).
 */
import { existsSync, statSync } from 'node:fs';
import { describeWhere } from '../agent/events.js';
import { readTrajectory } from '../agent/trajectory.js';
import { CHECK_NAMES } from '../bugs/check-types.js';
import type { RolloutRecord, RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { applyRolloutEvent, emptyRollout, tagOf, type RolloutStatus, type RolloutView, type RunView } from './run-state.js';

const VERDICTS: Record<string, string> = { p: 'pass', f: 'fail', s: 'skipped', c: 'cancelled' };

function rolloutView(store: Store, record: RolloutRecord): RolloutView {
  const view = emptyRollout(tagOf(record.id));
  const bug = record.bugId ? store.get('bugs', record.bugId) : undefined;
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
  };
}

export function storedRunView(store: Store, run: RunRecord): RunView {
  const rollouts = store
    .all('rollouts')
    .filter((r) => r.runId === run.id)
    .sort((a, b) => a.index - b.index);
  const views = rollouts.map((r) => rolloutView(store, r));
  return {
    image: run.image,
    strategy: run.strategy,
    policy: run.policy,
    tags: views.map((v) => v.tag),
    rollouts: Object.fromEntries(views.map((v) => [v.tag, v])),
    focus: 0,
    done: run.status !== 'running',
    runId: run.id,
    cluster: run.cluster ? `Slurm job ${run.cluster.jobId}, ${run.cluster.tasks} task${run.cluster.tasks === 1 ? '' : 's'}` : undefined,
    error: run.error ?? undefined,
  };
}

const transcripts = new Map<string, { size: number; view: RolloutView }>();

/** The transcript of a stored rollout, from its trajectory (read again only when the file has grown). */
export function storedTranscript(store: Store, record: RolloutRecord): RolloutView['transcript'] {
  const path = store.abs(record.trajectory);
  if (!existsSync(path)) return [];
  const size = statSync(path).size;
  const cached = transcripts.get(path);
  if (cached && cached.size === size) return cached.view.transcript;
  const view = readTrajectory(path).events.reduce((v, event) => applyRolloutEvent(v, event), emptyRollout(tagOf(record.id)));
  transcripts.set(path, { size, view });
  return view.transcript;
}
