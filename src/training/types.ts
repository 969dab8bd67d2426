/**
 * The training queue: one interface over the engines that run training jobs
 * (Slurm through slurmrestd, Ray Jobs, a local process). Everything here is
 * plain data, so a job's handle and last status can be kept in the store as
 * they are and handed back to any later process.
 */
import { JobSpecError } from '../errors.js';
import type { DatasetFormat } from '../datasets/formats.js';
import type { JobResources, JobState, JobStatus } from '../cluster/jobs.js';
import { isTerminal } from '../cluster/jobs.js';

export { isTerminal, JOB_STATES, TERMINAL_STATES, type JobResources, type JobState, type JobStatus } from '../cluster/jobs.js';

export const ENGINE_NAMES = ['slurm', 'ray', 'local'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** Export formats a training job can be given: the table's (datasets/formats.ts). */
export { DATASET_FORMATS, type DatasetFormat } from '../datasets/formats.js';

export const JOB_KINDS = ['sft', 'rl'] as const;
export type JobKind = (typeof JOB_KINDS)[number];


/** What to run: a trainer command over one exported dataset. */
export interface JobSpec {
  kind: JobKind;
  /** Short human name; engines show it (Slurm job name, Ray metadata). */
  name: string;
  /** The exported dataset: an absolute path the job can read (same machine or shared filesystem). */
  dataset: { path: string; format: DatasetFormat };
  /**
   * The training command, a template: `{dataset}`, `{format}`, `{kind}`, `{name}`, `{key}`,
   * `{workdir}`, `{gpus}`, `{cpus}` and `{job_id}` are replaced (see command-template.ts).
   * It runs with bash in `workdir`; its exit status is the job's.
   */
  command: string;
  /** Extra environment for the command. */
  env?: Record<string, string>;
  resources?: JobResources;
  /** Absolute folder the job runs in and writes its log to; it must exist. */
  workdir: string;
  /** Idempotency key (see job-key.ts): submitting a spec with the key of a live or finished job returns that job. */
  key: string;
}

/**
 * How to find a job again, from any process. Serializable; the store keeps it
 * as it is. Fields beyond `engine`, `id` and `key` are the engine's own.
 */
export interface JobHandle {
  engine: EngineName;
  /** The engine's id: Slurm job id, Ray submission id, local job id. */
  id: string;
  key: string;
  name: string;
  /** ISO time of the submission. */
  submittedAt: string;
  /** The file the job's output goes to, when the engine writes one we can read (slurm, local). */
  logPath?: string;
  /** The job's working directory. */
  workdir?: string;
}


export interface SubmitResult {
  handle: JobHandle;
  /** False when a job with the same key was already there and is returned instead. */
  created: boolean;
}

export interface JobLogs {
  text: string;
  /** True when only the tail was read. */
  truncated: boolean;
  /** Where the text came from (a file path or a URL). */
  source: string;
}

export interface EngineHealth {
  engine: EngineName;
  ok: boolean;
  /** One line: what answered (version, address) or what did not and what to do. */
  detail: string;
}

export interface TrainingQueue {
  readonly engine: EngineName;
  /** Submits, or returns the job already submitted under `spec.key` unless that one failed or was cancelled. */
  submit(spec: JobSpec): Promise<SubmitResult>;
  /** The newest job the engine still knows under this key. */
  find(key: string): Promise<JobHandle | null>;
  /** Current state. A job the engine no longer knows is `unknown` with a reason; keep your last state then. */
  status(handle: JobHandle): Promise<JobStatus>;
  /** The end of the job's output (default: the last 64 KiB). */
  logs(handle: JobHandle, options?: { tailBytes?: number }): Promise<JobLogs>;
  /** Stops the job; a job that already ended or is gone is left as it is. */
  cancel(handle: JobHandle): Promise<void>;
  /** Whether the engine answers, in one line. */
  health(): Promise<EngineHealth>;
}


/**
 * A job's state as every front end shows it: "cancelling" from the moment a
 * cancel was asked until the engine reports the end (Slurm still says
 * RUNNING for a moment after scancel), else the engine's state.
 */
export function shownJobState(job: { state: string; cancelRequestedAt?: string }): string {
  return job.cancelRequestedAt && !isTerminal(job.state as JobState) ? 'cancelling' : job.state;
}

/** A job under a key is reused by `submit` unless it ended badly: those are retried with a new job. */
export function reusable(state: JobState): boolean {
  return state !== 'failed' && state !== 'cancelled';
}

export const DEFAULT_TAIL_BYTES = 64 * 1024;

/** Refuses a handle another engine made (a store mix-up would otherwise ask the wrong cluster about a stranger's job). */
export function checkHandle(handle: JobHandle, engine: EngineName): void {
  if (handle.engine !== engine) {
    throw new JobSpecError(`job ${handle.id} belongs to the ${handle.engine} engine, not ${engine}; open the queue of its own engine`);
  }
}
