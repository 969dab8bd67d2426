/**
 * What the slurm engine needs from one slurmrestd OpenAPI version. Each version
 * maps requests and responses in its own module (v0038.ts for Slurm 22.05);
 * the newer data_parser versions (v0.0.40+, Slurm 23.11 and later) change the
 * shapes — `environment` as "K=V" strings, numbers as {set, infinite, number},
 * `job_state` as a list, `exit_code` as {status, return_code, signal} — so a
 * `v0041.ts` beside it implementing this interface, and a line in versions.ts,
 * is all a newer cluster needs.
 */
import type { JobResources, JobStatus } from '../jobs.js';

/** One entry of slurmrestd's `errors` list. */
export interface SlurmApiError {
  code: number;
  message: string;
  source: string;
}

/** What a failed response means, as far as this version can tell. */
export type SlurmFailureKind = 'auth' | 'job-not-found' | 'other';

export interface SlurmJobInfo {
  id: string;
  name: string;
  comment: string;
  /** The owner, null when slurmctld does not know the user (uid without a name on the node). */
  user: string | null;
  /** `standard_output` as slurmrestd returns it (may still hold %j). */
  outputPattern: string;
  workdir: string;
  node: string | null;
  submittedAt: string | null;
  status: JobStatus;
  /** For a task of a job array: the array's job id and this task's index. */
  arrayJobId?: string;
  arrayTaskId?: number;
}

export interface SubmitInput {
  spec: { name: string; workdir: string; resources?: JobResources };
  /** A job array: Slurm's index expression, e.g. "0-3" (each task gets SLURM_ARRAY_TASK_ID). */
  array?: string;
  script: string;
  environment: Record<string, string>;
  partition: string | undefined;
  /** Absolute output file pattern (stdout and stderr together). */
  outputPattern: string;
  comment: string;
}

export interface SlurmApi {
  readonly version: string;
  readonly paths: {
    ping: string;
    submit: string;
    jobs: string;
    job: (id: string) => string;
    partition: (name: string) => string;
  };
  submitBody(input: SubmitInput): unknown;
  /** The new job's id from a submit response. */
  parseSubmit(body: unknown): string | null;
  parseJobs(body: unknown): SlurmJobInfo[];
  parseErrors(body: unknown): SlurmApiError[];
  /** What a non-2xx answer means (22.05 answers a rejected token with HTTP 500). */
  classifyFailure(httpStatus: number, errors: SlurmApiError[]): SlurmFailureKind;
  /** One line about the controller from a ping answer; ok false when it is not up. */
  parsePing(body: unknown): { ok: boolean; detail: string };
  /** The Slurm release the answer came from, when it says. */
  release(body: unknown): string | null;
}
