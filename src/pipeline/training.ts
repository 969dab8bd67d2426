/**
 * Sending bugs to training: the bugs of a status (accepted by default) are
 * exported into the job's own folder and submitted to a cluster engine
 * through the training queue; the job is recorded in the store only once the
 * engine took it. The same bugs in the same format make the same key, so a
 * second submission finds the first job. States refresh on demand; the store
 * keeps the last state seen, since engines forget finished jobs.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BugbenchError } from '../errors.js';
import type { Progress } from '../progress.js';
import type { BugStatus, JobRecord } from '../store/records.js';
import { RecordNotFoundError, type Store } from '../store/store.js';
import { checkTemplate } from '../training/command-template.js';
import { randomUUID } from 'node:crypto';
import { exportDataset, oneOfEach, type ExportResult } from '../datasets/export.js';
import { dryRunCommand, jobDatasetName } from '../training/job-dataset.js';
import { jobKey } from '../training/job-key.js';
import { openQueue } from '../training/queue.js';
import type { TrainingSettings } from '../training/settings.js';
import { isTerminal, type DatasetFormat, type EngineName, type JobHandle, type JobKind, type JobResources, type JobStatus } from '../training/types.js';

export class NothingToTrainError extends BugbenchError {
  constructor(message: string) {
    super('BB_NOTHING_TO_TRAIN', message);
  }
}

export interface TrainingSubmit {
  engine: EngineName;
  format: DatasetFormat;
  /** Which bugs (default accepted). */
  status?: BugStatus;
  /** The trainer's command template (default: a dry run that reads every line of the dataset). */
  command?: string;
  kind?: JobKind;
  resources?: JobResources;
  settings?: TrainingSettings;
  /** Submit even if the same job was submitted before (a new job, a new key). */
  force?: boolean;
  /** SFT: take the scripted offline solvers' trajectories too (`export --include-scripted`). */
  includeScripted?: boolean;
  progress?: Progress;
}

/** SFT data trains SFT; RL tasks, SWE-bench instances and Harbor tasks feed an RL trainer. */
function kindOf(format: DatasetFormat): JobKind {
  return format === 'sft' ? 'sft' : 'rl';
}

function recordOf(handle: JobHandle, fields: Omit<JobRecord, 'id' | 'engine' | 'handle' | 'key' | 'state' | 'rawState' | 'exitCode' | 'reason' | 'updatedAt'>): JobRecord {
  return {
    id: `${handle.engine}-${handle.id}`,
    engine: handle.engine,
    handle: handle as unknown as JobRecord['handle'],
    key: handle.key,
    ...fields,
    state: 'queued',
    rawState: '',
    exitCode: null,
    reason: null,
    updatedAt: new Date().toISOString(),
  };
}

export async function submitTraining(store: Store, options: TrainingSubmit): Promise<{ job: JobRecord; created: boolean }> {
  // A command that cannot be filled is refused before anything is exported or found.
  if (options.command !== undefined) checkTemplate(options.command);
  const status = options.status ?? 'accepted';
  // One of each bug, as the dataset holds them: a second copy of one (accepted before duplicates were told apart) is not counted.
  const { bugs } = oneOfEach(store.all('bugs').filter((b) => b.status === status));
  if (bugs.length === 0) {
    throw new NothingToTrainError(`there are no ${status} bugs to train on${status === 'accepted' ? '; accept some with `bugbench accept <bug-id>` (or on the Review screen)' : ''}`);
  }
  const key = jobKey(
    bugs.map((b) => b.id),
    options.format,
    { command: options.command, resources: options.resources, nonce: options.force ? randomUUID() : undefined, includeScripted: options.includeScripted },
  );
  const known = store.all('jobs').find((j) => j.key === key && j.engine === options.engine && j.state !== 'failed' && j.state !== 'cancelled');
  if (known) return { job: known, created: false };

  const workdir = store.abs(join('jobs', `${options.format}-${key}`));
  const dataset = join(workdir, jobDatasetName(options.format));
  const command = options.command ?? dryRunCommand(options.format);
  options.progress?.(`exporting ${bugs.length} ${status} bug(s) as ${options.format} to ${dataset}`);
  const queue = openQueue(options.engine, options.settings);
  const kind = options.kind ?? kindOf(options.format);
  // The job's folder is made for it: an export that fails, or a submission the engine refuses, leaves none behind.
  const made = !existsSync(workdir);
  let exported: ExportResult | undefined;
  let submitted: Awaited<ReturnType<typeof queue.submit>>;
  try {
    mkdirSync(workdir, { recursive: true });
    if (!existsSync(dataset)) exported = await exportDataset(store, { format: options.format, out: dataset, status, includeScripted: options.includeScripted, progress: options.progress });
    options.progress?.(`submitting to ${options.engine}`);
    submitted = await queue.submit({
      kind,
      name: `bugbench-${kind}-${options.format}-${key.slice(0, 8)}`,
      dataset: { path: dataset, format: options.format },
      command,
      resources: options.resources,
      workdir,
      key,
    });
  } catch (error) {
    if (made) rmSync(workdir, { recursive: true, force: true });
    throw error;
  }
  const { handle, created } = submitted;
  const job = recordOf(handle, {
    kind,
    format: options.format,
    status,
    bugCount: bugs.length,
    lines: exported?.count ?? bugs.length,
    dataset: store.rel(dataset),
    workdir: store.rel(workdir),
    command,
    submittedAt: handle.submittedAt,
  });
  store.transact((tx) => tx.put('jobs', job));
  return { job, created };
}

/** A job of the store by id (or the unique one whose id ends so). */
export function findJob(store: Store, id: string): JobRecord {
  const exact = store.get('jobs', id);
  if (exact) return exact;
  const matches = store.all('jobs').filter((j) => j.id.endsWith(`-${id}`) || j.handle.id === id);
  if (matches.length === 1) return matches[0]!;
  throw new RecordNotFoundError('jobs', id);
}

/** Asks the job's engine for its state and keeps it; an engine that forgot the job leaves the last state seen. */
export async function refreshJob(store: Store, id: string, settings?: TrainingSettings): Promise<JobRecord> {
  const job = findJob(store, id);
  if (isTerminal(job.state as JobStatus['state'])) return job;
  const status = await openQueue(job.engine as EngineName, settings).status(job.handle as unknown as JobHandle);
  const fields: Partial<JobRecord> =
    status.state === 'unknown'
      ? { reason: status.reason ?? 'the engine no longer knows this job', updatedAt: new Date().toISOString() }
      : { state: status.state, rawState: status.rawState, exitCode: status.exitCode, reason: status.reason, updatedAt: new Date().toISOString() };
  return store.transact((tx) => tx.patch('jobs', job.id, fields));
}

/** Refreshes every job that has not ended; engines that do not answer leave their jobs as they were. */
export async function refreshJobs(store: Store, settings?: TrainingSettings): Promise<{ jobs: JobRecord[]; errors: string[] }> {
  const errors: string[] = [];
  for (const job of store.all('jobs')) {
    if (isTerminal(job.state as JobStatus['state'])) continue;
    await refreshJob(store, job.id, settings).catch((error: unknown) => errors.push(`${job.id}: ${(error as Error).message}`));
  }
  return { jobs: [...store.all('jobs')].sort((a, b) => b.submittedAt.localeCompare(a.submittedAt)), errors };
}

export async function jobLogs(store: Store, id: string, tailBytes?: number, settings?: TrainingSettings) {
  const job = findJob(store, id);
  return openQueue(job.engine as EngineName, settings).logs(job.handle as unknown as JobHandle, { tailBytes });
}

/** Asks the job's engine to stop it and keeps that it was asked: until the engine says it ended, the job is cancelling. */
export async function cancelJob(store: Store, id: string, settings?: TrainingSettings): Promise<JobRecord> {
  const job = findJob(store, id);
  if (isTerminal(job.state as JobStatus['state'])) return job;
  await openQueue(job.engine as EngineName, settings).cancel(job.handle as unknown as JobHandle);
  store.transact((tx) => tx.patch('jobs', job.id, { cancelRequestedAt: new Date().toISOString() }));
  return refreshJob(store, job.id, settings);
}

