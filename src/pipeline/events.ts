/**
 * The one protocol between the core and whoever follows its work (the CLI's
 * lines and JSON, the workbench's reducers, recorders). Every operation has
 * the same shape, `(settings, deps, report)`:
 *   - settings are plain data, kept in a run's record as they are;
 *   - deps are what the work runs with: the workspace store, the signal that
 *     cancels it, optionally one given engine and where this process runs;
 *   - report takes every event of the union below; a consumer picks the ones
 *     it shows and ignores the rest (vitest's reporters are the model).
 */
import type { ContainerEngine } from '../sandbox/port.js';
import type { RolloutEvent, RolloutWhere } from '../agent/events.js';
import type { CheckEvent } from '../bugs/check-types.js';
import type { AttemptRecord, BugRecord, BugStatus, RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { RunEngineEvent } from './run-engines.js';

/** A bug with its verdict, as a run reports it. */
export interface InjectedBug {
  /** Why BugPilot's analysis of a valid bug failed (the bug stays valid; `bugbench analyse` redoes it). */
  analysisError?: string;
  id: string;
  rollout: string;
  /** Whether it passed the nine checks (a duplicate did too; `status` says it is one). */
  valid: boolean;
  status: BugStatus;
  failedCheck: string | null;
  artifactDir: string;
  trajectory: string;
}

/** A solver attempt once it has a result (or ended without one). */
export interface AttemptSummary {
  id: string;
  solver: string;
  status: AttemptRecord['status'];
  solved: boolean;
  failing: string[];
  patchPath: string | null;
  trajectory: string;
  reward: 1 | -1 | null;
  evalRunMs: number | null;
}

export type CoreEvent =
  /** A run was recorded; its work starts. */
  | { type: 'run-started'; runId: string; kind: RunRecord['kind'] }
  /** A run's work ended and its status is recorded. */
  | { type: 'run-finished'; runId: string; status: RunRecord['status'] }
  /** Something an agent did: text, a tool call and its output, usage, its end. */
  | { type: 'rollout'; rolloutId: string; event: RolloutEvent }
  /** A step of a bug's checks; `subject` is the rollout that made the bug, or the bug itself when no rollout did. */
  | { type: 'check'; subject: string; event: CheckEvent }
  /** A new bug entered the library (its checks start). */
  | { type: 'bug-added'; bug: BugRecord; attempt?: AttemptRecord }
  /** A bug of a run got its verdict. */
  | { type: 'bug'; bug: InjectedBug }
  /** A solver attempt ended and was judged. */
  | { type: 'attempt'; attempt: AttemptSummary }
  /** The run's engines: images copied, work placed, engines lost and back. */
  | { type: 'engine'; event: RunEngineEvent }
  /** A cluster run's job array: submitted, its tasks' states, cancelled. */
  | { type: 'cluster'; event: ClusterEvent }
  /** A line of progress of long work (image builds, set-up, exports). */
  | { type: 'progress'; message: string };

export type ClusterEvent =
  /** A job array for the run (a resume submits another one for what is left). */
  | { type: 'submitted'; runId: string; jobId: string; tasks: number; resumed: boolean }
  /** A task's state changed: `text` says it as Slurm does ("RUNNING on n1", "FAILED (NonZeroExitCode)"). */
  | { type: 'task'; runId: string; task: number; text: string }
  /** The run's array was cancelled (every task); `error` when Slurm refused. */
  | { type: 'cancelled'; runId: string; error?: string };

export type Report = (event: CoreEvent) => void;

/** Ignores every event. */
export const ignore: Report = () => undefined;

/** What an operation runs with. */
export interface Deps {
  store: Store;
  /** Cancels the work; what it leaves behind is removed before the operation returns. */
  signal?: AbortSignal;
  /** One engine for all the work instead of the configured ones. */
  engine?: ContainerEngine;
  /** Where this process runs (a cluster task and its node), kept with each rollout. */
  where?: RolloutWhere;
}

/** Hands each event to every consumer. */
export function fanOut(...consumers: (Report | undefined)[]): Report {
  const live = consumers.filter((c): c is Report => c !== undefined);
  return (event) => {
    for (const consumer of live) consumer(event);
  };
}
