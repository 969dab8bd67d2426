/**
 * Writing rollouts as mini-swe-agent trajectory files, one
 * `<rollout-id>.traj.json` each: one rollout by id, or every rollout of the
 * bugs of a status (the injection that made each bug and every solver attempt
 * on it). A rollout whose trajectory was never written is skipped with the reason.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTrajectory } from '../../agent/trajectory.js';
import { ARTIFACT_FILES } from '../../bugs/artifact.js';
import { bugFolder, type AttemptRecord, type RolloutRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { ExportError } from '../export-error.js';
import { miniSweTrajectory, MINI_SWE_TRAJECTORY_FORMAT, type RolloutFacts } from './mini-swe.js';

export interface TrajectoriesWritten {
  count: number;
  bugIds: string[];
  skipped: { id: string; reason: string }[];
  manifest: Record<string, unknown>;
}

/** The rollouts to write: the one asked for, or those of the bugs of `status`. */
/** Which rollouts to write: one by id, or those of the chosen bugs (their injection and their solver attempts). */
export interface TrajectorySelection {
  bugIds: ReadonlySet<string>;
  rollout?: string;
}

export function chooseRollouts(store: Store, selection: TrajectorySelection): RolloutRecord[] {
  if (selection.rollout) {
    const one = store.get('rollouts', selection.rollout);
    if (!one) throw new ExportError(`there is no rollout ${selection.rollout}; a bug's rollout and its solver attempts are named in \`bugbench show <bug-id> --json\` (rollout, attempts[].id)`);
    return [one];
  }
  const bugs = selection.bugIds;
  const attempts = new Set(store.all('attempts').filter((a) => bugs.has(a.bugId)).map((a) => a.id));
  return store.all('rollouts').filter((r) => (r.bugId !== null && bugs.has(r.bugId)) || attempts.has(r.id));
}

function readText(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/** What the store knows of a rollout beside its events. */
export function rolloutFacts(store: Store, rollout: RolloutRecord, attempt: AttemptRecord | undefined): RolloutFacts {
  const run = store.get('runs', rollout.runId);
  const bugId = attempt?.bugId ?? rollout.bugId;
  const submission = attempt
    ? attempt.patch
      ? readText(store.abs(attempt.patch))
      : ''
    : rollout.bugId
      ? readText(store.abs(join(bugFolder(rollout.bugId), ARTIFACT_FILES.bugInject)))
      : '';
  return {
    rolloutId: rollout.id,
    runId: rollout.runId,
    role: rollout.role,
    model: attempt?.solver ?? run?.model ?? 'unknown',
    startedAt: rollout.startedAt,
    bugId,
    submission,
    attempt: attempt ? { solved: attempt.solved, reward: attempt.reward, failing: attempt.failing } : undefined,
    status: rollout.status,
  };
}

export function writeTrajectories(store: Store, selection: TrajectorySelection, staging: string): TrajectoriesWritten {
  const rollouts = chooseRollouts(store, selection);
  const out: TrajectoriesWritten = { count: 0, bugIds: [], skipped: [], manifest: {} };
  const files: { rollout: string; file: string; bug_id: string | null }[] = [];
  for (const rollout of rollouts) {
    const path = store.abs(rollout.trajectory);
    if (!existsSync(path)) {
      out.skipped.push({ id: rollout.id, reason: `no trajectory was recorded (${rollout.status})` });
      continue;
    }
    const trajectory = readTrajectory(path);
    if (!trajectory.messages) {
      out.skipped.push({ id: rollout.id, reason: `its trajectory has no messages yet (${rollout.status})` });
      continue;
    }
    const facts = rolloutFacts(store, rollout, store.get('attempts', rollout.id));
    const file = `${rollout.id}.traj.json`;
    writeFileSync(join(staging, file), `${JSON.stringify(miniSweTrajectory(trajectory, facts), null, 2)}\n`);
    files.push({ rollout: rollout.id, file, bug_id: facts.bugId });
    out.count += 1;
    if (facts.bugId && !out.bugIds.includes(facts.bugId)) out.bugIds.push(facts.bugId);
  }
  out.manifest = { format: 'trajectories', trajectory_format: MINI_SWE_TRAJECTORY_FORMAT, files, skipped: out.skipped };
  return out;
}
