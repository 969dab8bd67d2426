/**
 * The Ray Jobs REST API's request and response shapes (POST /api/jobs/,
 * GET /api/jobs/{id}, …/logs, …/stop, GET /api/version), as Ray documents
 * them. Pure: no I/O.
 *
 * Ray has no working-directory or time-limit field a REST client can use
 * (runtime_env.working_dir wants an uploaded package), so the entrypoint
 * changes into the job's folder itself and, when a time limit is set, runs the
 * command under coreutils `timeout` (exit 124 when it fires).
 */
import { jobEnvironment, shellQuote } from '../command-template.js';
import type { JobSpec, JobState, JobStatus } from '../types.js';

export const RAY_TIMEOUT_EXIT = 124;

/** The submission id of a key's `attempt`-th job: bugbench-<key>, then bugbench-<key>-2, … */
export function submissionId(key: string, attempt: number): string {
  return attempt <= 1 ? `bugbench-${key}` : `bugbench-${key}-${attempt}`;
}

export function entrypoint(spec: JobSpec, command: string): string {
  const limit = spec.resources?.timeLimitMinutes;
  const run = `bash -c ${shellQuote(command)}`;
  return `cd ${shellQuote(spec.workdir)} && exec ${limit ? `timeout --kill-after=30 ${limit}m ` : ''}${run}`;
}

export function submitBody(spec: JobSpec, command: string, id: string): Record<string, unknown> {
  const r = spec.resources ?? {};
  const body: Record<string, unknown> = {
    entrypoint: entrypoint(spec, command),
    submission_id: id,
    runtime_env: { env_vars: { ...jobEnvironment(spec, 'ray'), BUGBENCH_JOB_ID: id } },
    metadata: {
      job_name: spec.name,
      bugbench_key: spec.key,
      bugbench_kind: spec.kind,
      bugbench_format: spec.dataset.format,
      bugbench_dataset: spec.dataset.path,
    },
    entrypoint_num_cpus: r.cpus ?? 1,
  };
  if (r.gpus) body.entrypoint_num_gpus = r.gpus;
  if (r.memoryMb !== undefined) body.entrypoint_memory = r.memoryMb * 1024 * 1024;
  return body;
}

const STATES: Record<string, JobState> = {
  PENDING: 'queued',
  RUNNING: 'running',
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  STOPPED: 'cancelled',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function millis(value: unknown): string | null {
  return typeof value === 'number' && value > 0 ? new Date(value).toISOString() : null;
}

/** JobDetails → our status; null when the answer is not a job. */
export function jobStatus(details: unknown): JobStatus | null {
  if (!isObject(details) || typeof details.status !== 'string') return null;
  const raw = details.status;
  const state = STATES[raw] ?? 'unknown';
  const exitCode = typeof details.driver_exit_code === 'number' ? details.driver_exit_code : null;
  // Ray's failure message carries a long log tail after its first line; the first line is the reason.
  const message = typeof details.message === 'string' ? details.message.split('\n')[0]!.trim() : '';
  let reason: string | null = message || null;
  if (state === 'failed' && exitCode === RAY_TIMEOUT_EXIT) reason = 'the job reached its time limit (timeout exited 124)';
  else if (state === 'unknown') reason = `Ray reports a status bugbench does not know: "${raw}"`;
  else if (state === 'failed' && typeof details.error_type === 'string' && details.error_type && !reason) reason = details.error_type;
  return {
    state,
    rawState: raw,
    exitCode: state === 'succeeded' || state === 'failed' ? exitCode : null,
    signal: null,
    reason,
    startedAt: millis(details.start_time),
    endedAt: state === 'succeeded' || state === 'failed' || state === 'cancelled' ? millis(details.end_time) : null,
  };
}

export function submittedId(body: unknown): string | null {
  if (!isObject(body)) return null;
  const id = body.submission_id ?? body.job_id;
  return typeof id === 'string' && id ? id : null;
}

export function logsText(body: unknown): string {
  return isObject(body) && typeof body.logs === 'string' ? body.logs : '';
}

export function versionLine(body: unknown): string {
  if (!isObject(body)) return 'Ray (version not given)';
  const ray = typeof body.ray_version === 'string' ? body.ray_version : '?';
  const api = typeof body.version === 'string' ? body.version : '?';
  return `Ray ${ray} (Jobs API ${api})`;
}

/** Ray refuses a second job under a submission id with HTTP 400 and a message saying it exists. */
export function isDuplicateSubmission(status: number, text: string): boolean {
  return status === 400 && /already exists/i.test(text);
}
