/**
 * The `slurm` engine: training jobs as Slurm batch jobs through slurmrestd.
 *
 * Idempotency: the job's `comment` is `bugbench:<key>`; `find(key)` looks for
 * it in the controller's job list. The controller forgets finished jobs
 * MinJobAge seconds after they end (there is no accounting database to ask),
 * so a vanished job's status is `unknown` with a reason and the caller keeps
 * the last state it saw. Logs are read from the job's output file, which is on
 * this machine or a shared filesystem.
 */
import { existsSync, statSync } from 'node:fs';
import { errorMessage, JobSpecError, TrainingAuthError } from '../../errors.js';
import { validateSpec } from '../job-spec.js';
import { readLogTail } from '../log-tail.js';
import type { SlurmSettings } from '../settings.js';
import { checkHandle, reusable, type EngineHealth, type JobHandle, type JobLogs, type JobSpec, type JobStatus, type SubmitResult, type TrainingQueue } from '../types.js';
import type { SlurmJobInfo } from '../../cluster/slurm/api.js';
import { batchEnvironment, batchScript } from './batch-script.js';
import { SlurmClient, SlurmRequestError } from '../../cluster/slurm/client.js';
import { prepareForJobUser } from '../../cluster/slurm/job-user.js';
import { DEFAULT_OUTPUT_PATTERN, expandOutputPath } from '../../cluster/slurm/output-path.js';

const COMMENT_PREFIX = 'bugbench:';
const HEALTH_TIMEOUT_MS = 5000;

export function slurmComment(key: string): string {
  return `${COMMENT_PREFIX}${key}`;
}

export class SlurmQueue implements TrainingQueue {
  readonly engine = 'slurm' as const;
  readonly client: SlurmClient;

  constructor(private readonly settings: SlurmSettings) {
    this.client = new SlurmClient(settings);
  }

  private handleFor(job: SlurmJobInfo, key: string): JobHandle {
    const pattern = job.outputPattern || DEFAULT_OUTPUT_PATTERN;
    return {
      engine: 'slurm',
      id: job.id,
      key,
      name: job.name,
      submittedAt: job.submittedAt ?? new Date().toISOString(),
      logPath: expandOutputPath(pattern, {
        jobId: job.id,
        jobName: job.name,
        user: job.user ?? this.settings.user ?? '',
        workdir: job.workdir,
        node: job.node ?? undefined,
      }),
      workdir: job.workdir,
    };
  }

  private async job(id: string): Promise<SlurmJobInfo | null> {
    try {
      const answer = await this.client.request('GET', this.client.api.paths.job(id));
      return this.client.api.parseJobs(answer.body)[0] ?? null;
    } catch (error) {
      if (error instanceof SlurmRequestError && error.jobNotFound) return null;
      throw error;
    }
  }

  /** The newest job the controller knows under `key`. */
  private async latest(key: string): Promise<SlurmJobInfo | null> {
    const answer = await this.client.request('GET', this.client.api.paths.jobs);
    const mine = this.client.api
      .parseJobs(answer.body)
      .filter((job) => job.comment === slurmComment(key))
      .sort((a, b) => Number(b.id) - Number(a.id));
    return mine[0] ?? null;
  }

  async find(key: string): Promise<JobHandle | null> {
    const job = await this.latest(key);
    return job ? this.handleFor(job, key) : null;
  }

  async submit(spec: JobSpec): Promise<SubmitResult> {
    const command = validateSpec(spec);
    const existing = await this.latest(spec.key);
    if (existing && reusable(existing.status.state)) return { handle: this.handleFor(existing, spec.key), created: false };

    if (!existsSync(spec.workdir) || !statSync(spec.workdir).isDirectory()) {
      throw new JobSpecError(`the job's working directory ${spec.workdir} does not exist; create it (and put the dataset there) first`);
    }
    prepareForJobUser(this.settings.user, spec.workdir, spec.dataset.path);

    const outputPattern = `${spec.workdir.replace(/\/$/, '')}/${DEFAULT_OUTPUT_PATTERN}`;
    const body = this.client.api.submitBody({
      spec,
      script: batchScript(spec, command),
      environment: batchEnvironment(spec),
      partition: this.settings.partition,
      outputPattern,
      comment: slurmComment(spec.key),
    });
    const answer = await this.client.request('POST', this.client.api.paths.submit, body);
    const id = this.client.api.parseSubmit(answer.body);
    if (!id) throw new SlurmRequestError(`slurmrestd at ${this.client.address} accepted the job but named no job id`, answer.status, [], false);
    const submitted: JobHandle = {
      engine: 'slurm',
      id,
      key: spec.key,
      name: spec.name,
      submittedAt: new Date().toISOString(),
      logPath: expandOutputPath(outputPattern, { jobId: id, jobName: spec.name, user: this.settings.user ?? '', workdir: spec.workdir }),
      workdir: spec.workdir,
    };

    const job = await this.job(id);
    if (job && job.user === null) {
      // Accepted, but it can never start: its owner is unknown on the nodes. Take it back.
      await this.cancel(submitted);
      throw new TrainingAuthError(`Slurm accepted job ${id} but cannot run it: ${job.status.reason}. It was cancelled.`);
    }
    return { handle: job ? this.handleFor(job, spec.key) : submitted, created: true };
  }

  async status(handle: JobHandle): Promise<JobStatus> {
    checkHandle(handle, 'slurm');
    const job = await this.job(handle.id);
    if (!job) {
      return unknownStatus(
        `slurmctld no longer knows job ${handle.id}: without an accounting database it forgets a job MinJobAge seconds after it ends; keep the last state you saw`,
      );
    }
    return job.status;
  }

  async logs(handle: JobHandle, options: { tailBytes?: number } = {}): Promise<JobLogs> {
    checkHandle(handle, 'slurm');
    let path = handle.logPath;
    if (!path) {
      const job = await this.job(handle.id);
      if (job) path = this.handleFor(job, handle.key).logPath;
    }
    if (!path) return { text: '', truncated: false, source: `slurm job ${handle.id} (its output file is not known)` };
    return readLogTail(path, options.tailBytes);
  }

  async cancel(handle: JobHandle): Promise<void> {
    checkHandle(handle, 'slurm');
    try {
      await this.client.request('DELETE', this.client.api.paths.job(handle.id));
    } catch (error) {
      if (error instanceof SlurmRequestError && error.jobNotFound) return;
      throw error;
    }
  }

  async health(): Promise<EngineHealth> {
    const where = `slurmrestd ${this.client.api.version} at ${this.client.address}`;
    try {
      const answer = await this.client.request('GET', this.client.api.paths.ping, undefined, HEALTH_TIMEOUT_MS);
      const ping = this.client.api.parsePing(answer.body);
      const release = this.client.api.release(answer.body);
      if (!ping.ok) return { engine: 'slurm', ok: false, detail: `${where} answers but the controller is not up: ${ping.detail}` };
      let partition = '';
      if (this.settings.partition) {
        try {
          await this.client.request('GET', this.client.api.paths.partition(this.settings.partition), undefined, HEALTH_TIMEOUT_MS);
          partition = `, partition ${this.settings.partition}`;
        } catch (error) {
          return { engine: 'slurm', ok: false, detail: `${where}: partition ${this.settings.partition} is not usable (${errorMessage(error)})` };
        }
      }
      const user = this.settings.url ? `, as ${this.settings.user}` : '';
      return { engine: 'slurm', ok: true, detail: `Slurm ${release ?? '?'}: ${ping.detail}, ${where}${user}${partition}` };
    } catch (error) {
      return { engine: 'slurm', ok: false, detail: errorMessage(error) };
    }
  }
}

function unknownStatus(reason: string): JobStatus {
  return { state: 'unknown', rawState: '', exitCode: null, signal: null, reason, startedAt: null, endedAt: null };
}
