/**
 * What any cluster's job is, whoever submits it (a training job, a cluster
 * run's job array): the resources it asks for and the states it goes
 * through, in bugbench's words, with the engine's own word kept beside.
 */

export interface JobResources {
  /** CPUs for the job (default 1). */
  cpus?: number;
  /** Memory in MiB (default: the engine's default). */
  memoryMb?: number;
  /** GPUs (default 0). */
  gpus?: number;
  /** Wall-clock limit in minutes (default: none beyond the engine's own). */
  timeLimitMinutes?: number;
}

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'unknown'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobStatus {
  state: JobState;
  /** The engine's own word for the state (`PENDING`, `COMPLETED`, `STOPPED`, …), '' when the engine has none. */
  rawState: string;
  /** The command's exit code once it exited on its own; null while running or when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, if one did. */
  signal: number | null;
  /** Why it is in this state, when there is more to say (engine reason, failure, vanished job). */
  reason: string | null;
  startedAt: string | null;
  endedAt: string | null;
}

export const TERMINAL_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];

export function isTerminal(state: JobState): boolean {
  return TERMINAL_STATES.includes(state);
}
