/**
 * slurmrestd OpenAPI v0.0.38 (Slurm 22.05, Debian 12): the request and
 * response shapes, and what its answers mean. Pure: no I/O.
 *
 * Quirks of this version handled here:
 * - `environment` is an object and is required on submit;
 * - `exit_code` is the raw wait status of the batch script;
 * - a rejected token is HTTP 500 with "Unspecified error" from a slurm_load_*
 *   call, not 401 (a controller that does not answer looks the same, after a
 *   few seconds);
 * - an unknown job id is HTTP 500 with error 2017;
 * - a job whose owner has no name on the node is accepted (user_name null),
 *   then requeued and left in PENDING, reason BeginTime, for ever: reported
 *   as failed.
 */
import type { JobState, JobStatus } from '../jobs.js';
import type { SlurmApi, SlurmApiError, SlurmFailureKind, SlurmJobInfo, SubmitInput } from './api.js';
import { decodeWaitStatus } from './wait-status.js';

const BASE = '/slurm/v0.0.38';
/** ESLURM_INVALID_JOB_ID */
const INVALID_JOB_ID = 2017;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function epoch(value: unknown): string | null {
  return typeof value === 'number' && value > 0 ? new Date(value * 1000).toISOString() : null;
}

const STATES: Record<string, JobState> = {
  PENDING: 'queued',
  REQUEUED: 'queued',
  REQUEUE_HOLD: 'queued',
  REQUEUE_FED: 'queued',
  RESV_DEL_HOLD: 'queued',
  CONFIGURING: 'running',
  RUNNING: 'running',
  SUSPENDED: 'running',
  COMPLETING: 'running',
  RESIZING: 'running',
  STAGE_OUT: 'running',
  SIGNALING: 'running',
  COMPLETED: 'succeeded',
  FAILED: 'failed',
  TIMEOUT: 'failed',
  NODE_FAIL: 'failed',
  BOOT_FAIL: 'failed',
  DEADLINE: 'failed',
  OUT_OF_MEMORY: 'failed',
  PREEMPTED: 'failed',
  SPECIAL_EXIT: 'failed',
  CANCELLED: 'cancelled',
  REVOKED: 'cancelled',
};

const FAILURE_REASONS: Record<string, string> = {
  TIMEOUT: 'the job reached its time limit',
  NODE_FAIL: 'a node of the job failed',
  BOOT_FAIL: 'a node failed to boot',
  DEADLINE: 'the job reached its deadline',
  OUT_OF_MEMORY: 'the job ran out of memory',
  PREEMPTED: 'the job was preempted',
};

/** A v0.0.38 job object → our status. */
export function jobStatus(job: Json): JobStatus {
  const raw = str(job.job_state).toUpperCase();
  const reason = str(job.state_reason);
  const described = str(job.state_description);
  const waited = typeof job.exit_code === 'number' ? decodeWaitStatus(job.exit_code) : { exitCode: null, signal: null };
  let state: JobState = STATES[raw] ?? 'unknown';
  let why: string | null = reason && reason !== 'None' ? reason : null;
  if (described) why = why ? `${why}: ${described}` : described;

  // slurmctld names every owner it knows; without a name the uid is unknown and the job can never start.
  if (raw === 'PENDING' && (job.user_name === null || job.user_name === undefined || job.user_name === '')) {
    state = 'failed';
    why =
      `the job's owner (uid ${str(job.user_id) || '?'}) is not a user on the cluster's nodes, so Slurm cannot start it ` +
      '(it would wait in PENDING/BeginTime for ever); submit as a user that exists there';
  } else if (state === 'failed' && FAILURE_REASONS[raw]) {
    why = FAILURE_REASONS[raw]!;
  } else if (state === 'unknown') {
    why = `Slurm reports a state bugbench does not know: "${raw}"`;
  }

  const ranToEnd = raw in STATES && STATES[raw] !== 'queued' && STATES[raw] !== 'running';
  return {
    state,
    rawState: raw,
    // A cancelled job's exit code is the cancel's doing, not the command's (under load Slurm reported 1 for one cancelled while starting).
    exitCode: ranToEnd && state !== 'cancelled' ? waited.exitCode : null,
    signal: ranToEnd ? waited.signal : null,
    reason: why,
    startedAt: STATES[raw] === 'running' || ranToEnd ? epoch(job.start_time) : null,
    endedAt: ranToEnd ? epoch(job.end_time) : null,
  };
}

function jobInfo(job: Json): SlurmJobInfo {
  const userName = job.user_name;
  const nodes = str(job.nodes);
  return {
    id: str(job.job_id),
    name: str(job.name),
    comment: str(job.comment),
    user: typeof userName === 'string' && userName ? userName : null,
    outputPattern: str(job.standard_output),
    workdir: str(job.current_working_directory),
    node: nodes && !nodes.includes(',') && !nodes.includes('[') ? nodes : null,
    submittedAt: epoch(job.submit_time),
    status: jobStatus(job),
    ...(typeof job.array_task_id === 'number' ? { arrayJobId: str(job.array_job_id), arrayTaskId: job.array_task_id } : {}),
  };
}

function submitBody(input: SubmitInput): unknown {
  const { spec } = input;
  const r = spec.resources ?? {};
  const job: Json = {
    name: spec.name,
    current_working_directory: spec.workdir,
    standard_output: input.outputPattern,
    comment: input.comment,
    tasks: 1,
    cpus_per_task: r.cpus ?? 1,
    environment: input.environment,
  };
  if (input.partition) job.partition = input.partition;
  if (input.array) job.array = input.array;
  if (r.memoryMb !== undefined) job.memory_per_node = r.memoryMb;
  if (r.gpus) job.gpus_per_node = String(r.gpus);
  if (r.timeLimitMinutes !== undefined) job.time_limit = r.timeLimitMinutes;
  return { script: input.script, job };
}

function parseErrors(body: unknown): SlurmApiError[] {
  if (!isObject(body) || !Array.isArray(body.errors)) return [];
  return body.errors.filter(isObject).map((e) => ({
    // The key varies by endpoint in 22.05: error_number, error_code or errno.
    code: [e.error_number, e.error_code, e.errno].find((n): n is number => typeof n === 'number') ?? -1,
    message: [str(e.error), str(e.description)].filter(Boolean).join(': '),
    source: str(e.source),
  }));
}

function classifyFailure(httpStatus: number, errors: SlurmApiError[]): SlurmFailureKind {
  if (httpStatus === 401 || httpStatus === 403) return 'auth';
  if (errors.some((e) => e.code === INVALID_JOB_ID)) return 'job-not-found';
  // 22.05 turns a token slurmctld refused into "Unspecified error" (-1) from the call it tried.
  if (httpStatus === 500 && errors.length > 0 && errors.every((e) => e.code === -1 && e.source.startsWith('slurm_load_'))) return 'auth';
  return 'other';
}

function parsePing(body: unknown): { ok: boolean; detail: string } {
  const pings = isObject(body) && Array.isArray(body.pings) ? body.pings.filter(isObject) : [];
  if (pings.length === 0) return { ok: false, detail: 'the ping answer names no controller' };
  const up = pings.filter((p) => str(p.ping) === 'UP');
  const detail = pings.map((p) => `slurmctld ${str(p.hostname)} ${str(p.ping)} (${str(p.mode)})`).join(', ');
  return { ok: up.length > 0, detail };
}

function release(body: unknown): string | null {
  if (!isObject(body) || !isObject(body.meta) || !isObject(body.meta.Slurm)) return null;
  return str(body.meta.Slurm.release) || null;
}

export const v0038: SlurmApi = {
  version: 'v0.0.38',
  paths: {
    ping: `${BASE}/ping`,
    submit: `${BASE}/job/submit`,
    jobs: `${BASE}/jobs?update_time=0`,
    job: (id) => `${BASE}/job/${encodeURIComponent(id)}`,
    partition: (name) => `${BASE}/partition/${encodeURIComponent(name)}`,
  },
  submitBody,
  parseSubmit: (body) => (isObject(body) && (typeof body.job_id === 'number' || typeof body.job_id === 'string') ? str(body.job_id) : null),
  parseJobs: (body) => (isObject(body) && Array.isArray(body.jobs) ? body.jobs.filter(isObject).map(jobInfo) : []),
  parseErrors,
  classifyFailure,
  parsePing,
  release,
};
