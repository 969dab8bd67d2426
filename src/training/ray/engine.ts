/**
 * The `ray` engine: training jobs through the Ray Jobs REST API on the
 * cluster's dashboard address. The submission id is the idempotency key
 * (`bugbench-<key>`; a retry after a failure or a stop gets `-2`, `-3`, …), so
 * Ray itself refuses a duplicate.
 */
import { errorMessage, TrainingAuthError, TrainingEngineError, TrainingEngineUnreachableError, TrainingNotConfiguredError } from '../../errors.js';
import { requestJson, TransportError, type HttpRequest, type HttpResponse } from '../../cluster/http-json.js';
import { validateSpec } from '../job-spec.js';
import { tailText } from '../log-tail.js';
import type { RaySettings } from '../settings.js';
import { checkHandle, DEFAULT_TAIL_BYTES, reusable, type EngineHealth, type JobHandle, type JobLogs, type JobSpec, type JobStatus, type SubmitResult, type TrainingQueue } from '../types.js';
import { isDuplicateSubmission, jobStatus, logsText, submissionId, submitBody, submittedId, versionLine } from './mapping.js';

const HEALTH_TIMEOUT_MS = 5000;
/** Retries of one key beyond this many are not looked for. */
const MAX_ATTEMPTS = 50;

export class RayQueue implements TrainingQueue {
  readonly engine = 'ray' as const;
  readonly address: string;

  constructor(settings: RaySettings) {
    if (!settings.address) {
      throw new TrainingNotConfiguredError('no Ray cluster is configured: set RAY_ADDRESS to its dashboard address (e.g. http://head:8265) or training.ray.address');
    }
    if (!/^https?:\/\//.test(settings.address)) {
      throw new TrainingNotConfiguredError(
        `the Ray address must be the dashboard's HTTP address (e.g. http://head:8265) for the Jobs API, got ${settings.address} (from ${settings.source})`,
      );
    }
    this.address = settings.address;
  }

  private async call(method: HttpRequest['method'], path: string, body?: unknown, timeoutMs?: number): Promise<HttpResponse> {
    let response: HttpResponse;
    try {
      response = await requestJson({ url: this.address }, { method, path, body, timeoutMs });
    } catch (error) {
      if (error instanceof TransportError) {
        throw new TrainingEngineUnreachableError('ray', this.address, error.reason, 'check that the Ray head is up and RAY_ADDRESS names its dashboard (port 8265 by default)');
      }
      throw error;
    }
    if (response.status === 401 || response.status === 403) {
      throw new TrainingAuthError(`the Ray dashboard at ${this.address} refused the request (HTTP ${response.status}): ${response.text.trim().slice(0, 200)}`);
    }
    return response;
  }

  private fail(what: string, response: HttpResponse): never {
    const said = response.text.trim().split('\n').slice(-1)[0]?.slice(0, 300) || `HTTP ${response.status}`;
    throw new TrainingEngineError(`Ray at ${this.address}: ${what} failed: ${said} (HTTP ${response.status})`, response.status);
  }

  /** The job's details, or null when Ray does not know it. */
  private async details(id: string): Promise<unknown | null> {
    const response = await this.call('GET', `/api/jobs/${encodeURIComponent(id)}`);
    if (response.status === 404) return null;
    if (response.status !== 200) this.fail(`reading job ${id}`, response);
    return response.json;
  }

  private handle(id: string, key: string, name: string, details: unknown): JobHandle {
    const info = (details ?? {}) as { start_time?: unknown; metadata?: { job_name?: unknown } };
    return {
      engine: 'ray',
      id,
      key,
      name: typeof info.metadata?.job_name === 'string' ? info.metadata.job_name : name,
      submittedAt: typeof info.start_time === 'number' ? new Date(info.start_time).toISOString() : new Date().toISOString(),
    };
  }

  /** The newest attempt under `key` and its number (0 when there is none). */
  private async latest(key: string): Promise<{ attempt: number; id: string; details: unknown } | null> {
    let found: { attempt: number; id: string; details: unknown } | null = null;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const id = submissionId(key, attempt);
      const details = await this.details(id);
      if (details === null) break;
      found = { attempt, id, details };
    }
    return found;
  }

  async find(key: string): Promise<JobHandle | null> {
    const latest = await this.latest(key);
    return latest ? this.handle(latest.id, key, '', latest.details) : null;
  }

  async submit(spec: JobSpec): Promise<SubmitResult> {
    const command = validateSpec(spec);
    const latest = await this.latest(spec.key);
    if (latest) {
      const status = jobStatus(latest.details);
      if (status && reusable(status.state)) return { handle: this.handle(latest.id, spec.key, spec.name, latest.details), created: false };
    }
    const id = submissionId(spec.key, (latest?.attempt ?? 0) + 1);
    const response = await this.call('POST', '/api/jobs/', submitBody(spec, command, id));
    if (isDuplicateSubmission(response.status, response.text)) {
      // Another process submitted the same key just now: that job is ours too.
      return { handle: this.handle(id, spec.key, spec.name, await this.details(id)), created: false };
    }
    if (response.status !== 200) this.fail('submitting the job', response);
    const returned = submittedId(response.json) ?? id;
    return { handle: this.handle(returned, spec.key, spec.name, null), created: true };
  }

  async status(handle: JobHandle): Promise<JobStatus> {
    checkHandle(handle, 'ray');
    const details = await this.details(handle.id);
    if (details === null) {
      return { state: 'unknown', rawState: '', exitCode: null, signal: null, reason: `Ray no longer knows job ${handle.id} (deleted, or the cluster restarted); keep the last state you saw`, startedAt: null, endedAt: null };
    }
    const status = jobStatus(details);
    if (!status) throw new TrainingEngineError(`Ray at ${this.address} answered job ${handle.id} with something that is not a job`);
    return status;
  }

  async logs(handle: JobHandle, options: { tailBytes?: number } = {}): Promise<JobLogs> {
    checkHandle(handle, 'ray');
    const path = `/api/jobs/${encodeURIComponent(handle.id)}/logs`;
    const response = await this.call('GET', path);
    if (response.status === 404) return { text: '', truncated: false, source: `${this.address}${path} (job unknown to Ray)` };
    if (response.status !== 200) this.fail(`reading the logs of job ${handle.id}`, response);
    const all = Buffer.from(logsText(response.json), 'utf8');
    const tail = Math.max(0, options.tailBytes ?? DEFAULT_TAIL_BYTES);
    const cut = all.length > tail;
    return { text: tailText(cut ? all.subarray(all.length - tail) : all, cut), truncated: cut, source: `${this.address}${path}` };
  }

  async cancel(handle: JobHandle): Promise<void> {
    checkHandle(handle, 'ray');
    const response = await this.call('POST', `/api/jobs/${encodeURIComponent(handle.id)}/stop`);
    if (response.status === 404 || response.status === 200) return;
    this.fail(`stopping job ${handle.id}`, response);
  }

  async health(): Promise<EngineHealth> {
    try {
      const response = await this.call('GET', '/api/version', undefined, HEALTH_TIMEOUT_MS);
      if (response.status !== 200) this.fail('asking its version', response);
      return { engine: 'ray', ok: true, detail: `${versionLine(response.json)} at ${this.address}` };
    } catch (error) {
      return { engine: 'ray', ok: false, detail: errorMessage(error) };
    }
  }
}
