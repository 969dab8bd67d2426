/**
 * Injection and solving runs as Slurm job arrays. The run and its rollouts
 * (or solver attempts) are recorded in the workspace first, as for a run on
 * this machine; its rollouts are dealt
 * round-robin into T shares, and one array of T tasks is submitted through the
 * training queue's Slurm client. Each task runs `bugbench cluster-task <run>
 * --task i` on its node: its share of the rollouts, with the bwrap sandboxes
 * the run names (cluster/task-engines.ts) or else the node's own engine
 * (Docker if the job user may use it, else the user's rootless Podman), writing trajectories, bugs and checks into the shared workspace
 * (the store is safe for several processes). Whoever follows the run reads
 * the tasks' states from Slurm: a task that ended leaves its unfinished
 * rollouts `interrupted`, and once every task has ended the run is finished,
 * cancelled or interrupted. `--resume` submits a new array for what is left.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BugbenchError, errorMessage, UsageError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import type { ClusterRunInfo, RunRecord } from '../store/records.js';
import { recoverAbandoned } from '../store/recover.js';
import { RecordNotFoundError, type Store } from '../store/store.js';
import type { SlurmJobInfo } from '../cluster/slurm/api.js';
import { DEFAULT_JOB_PATH } from '../training/slurm/batch-script.js';
import { SlurmClient, SlurmRequestError } from '../cluster/slurm/client.js';
import { shareWorkspaceWithJobUser } from '../cluster/slurm/job-user.js';
import { taskEngines } from '../cluster/task-engines.js';
import { loadTrainingSettings } from '../training/settings.js';
import { isTerminal, type JobState } from '../training/types.js';
import { ignore, type Deps, type Report } from './events.js';
import { createInjectionRun, unfinishedWork, type InjectSettings } from './inject.js';
import { createSolveRun, summarizeSolve, type SolveSettings } from './solve.js';

export interface ClusterShare {
  indices: number[];
  recheck: string[];
}

/** The run record's cluster part, with the shares of the current array. */
export type ClusterInfo = ClusterRunInfo & { shares: ClusterShare[] };

export class ClusterRunError extends BugbenchError {
  constructor(message: string) {
    super('BB_CLUSTER_RUN', message);
  }
}

const BIN = join(PACKAGE_ROOT, 'bin', 'bugbench.js');

export function clusterOf(run: RunRecord): ClusterInfo | undefined {
  return run.cluster ? (run.cluster as ClusterInfo) : undefined;
}

/** Deals the work round-robin into at most `tasks` non-empty shares. */
export function dealShares(work: ClusterShare, tasks: number): ClusterShare[] {
  const items = [...work.recheck.map((id) => ({ recheck: id })), ...work.indices.map((index) => ({ index }))];
  const n = Math.max(1, Math.min(tasks, items.length));
  const shares: ClusterShare[] = Array.from({ length: n }, () => ({ indices: [], recheck: [] }));
  items.forEach((item, i) => {
    const share = shares[i % n]!;
    if ('recheck' in item) share.recheck.push(item.recheck);
    else share.indices.push(item.index);
  });
  return shares;
}

function slurmClient(): { client: SlurmClient; user: string | undefined; partition: string | undefined } {
  const settings = loadTrainingSettings().slurm;
  return { client: new SlurmClient(settings), user: settings.user, partition: settings.partition };
}

/** Submits one array for `shares` of a recorded run, its tasks on `engines` (their DOCKER_HOST); returns its job id. */
async function submitArray(store: Store, runId: string, array: { shares: ClusterShare[]; engines: string | undefined }): Promise<string> {
  const { shares, engines } = array;
  const { client, user, partition } = slurmClient();
  const dir = join('cluster', runId);
  const workdir = store.abs(dir);
  mkdirSync(workdir, { recursive: true });
  // Tasks write the store, the run's folder and bugs/ as the job user.
  shareWorkspaceWithJobUser(user, store.root, { tree: [store.abs('store'), store.abs(join('runs', runId)), workdir], dirs: [store.abs('bugs')] }, { program: BIN, engine: true, taskEngines: engines });
  // Without engines named for them, each task picks its node's engine (Docker, or the job user's rootless Podman; sandbox/node-engine.ts).
  const environment: Record<string, string> = { PATH: `${join(process.execPath, '..')}:${DEFAULT_JOB_PATH}`, LANG: 'C.UTF-8', BUGBENCH_HOME: store.root, ...(engines ? { DOCKER_HOST: engines } : {}) };
  const script = ['#!/bin/bash', `# bugbench: task $SLURM_ARRAY_TASK_ID of run ${runId}`, `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} cluster-task ${runId} --task "$SLURM_ARRAY_TASK_ID"`, ''].join('\n');
  const body = client.api.submitBody({
    spec: { name: `bugbench-${runId}`, workdir, resources: { cpus: 1 } },
    array: `0-${shares.length - 1}`,
    script,
    environment,
    partition,
    outputPattern: join(workdir, 'task-%a.out'),
    comment: `bugbench-run:${runId}`,
  });
  const answer = await client.request('POST', client.api.paths.submit, body);
  const jobId = client.api.parseSubmit(answer.body);
  if (!jobId) throw new ClusterRunError(`slurmrestd at ${client.address} accepted the array for run ${runId} but named no job id`);
  return jobId;
}

function newCluster(shares: ClusterShare[]): ClusterInfo {
  const engines = taskEngines();
  return { engine: 'slurm', jobId: '', tasks: shares.length, earlierJobs: [], dir: '', submittedAt: new Date().toISOString(), shares, ...(engines ? { engines } : {}) };
}

/** Submits the first array of a run just recorded with `cluster`; a refused submission fails the run. */
async function submitRecordedRun(store: Store, runId: string, cluster: ClusterInfo): Promise<string> {
  cluster.dir = join('cluster', runId);
  try {
    cluster.jobId = await submitArray(store, runId, { shares: cluster.shares, engines: cluster.engines });
  } catch (error) {
    store.transact((tx) => tx.patch('runs', runId, { status: 'failed', finishedAt: new Date().toISOString(), error: errorMessage(error), cluster }));
    throw error;
  }
  store.transact((tx) => tx.patch('runs', runId, { cluster }));
  return cluster.jobId;
}

function checkTasks(tasks: number): void {
  if (!Number.isInteger(tasks) || tasks < 1) throw new UsageError('--tasks must be a positive integer');
}

/** Records an injection run and submits it as an array of `tasks` tasks. */
export async function submitClusterInjection(array: { settings: InjectSettings; tasks: number }, deps: Deps, report: Report = ignore): Promise<{ runId: string; jobId: string }> {
  const { settings, tasks } = array;
  checkTasks(tasks);
  if (deps.engine) throw new UsageError('a cluster run uses each node\'s own Docker engine');
  const cluster = newCluster(dealShares({ indices: [...Array(settings.n).keys()], recheck: [] }, tasks));
  const { runId } = await createInjectionRun(settings, deps, { cluster });
  const jobId = await submitRecordedRun(deps.store, runId, cluster);
  report({ type: 'run-started', runId, kind: 'inject' });
  return { runId, jobId };
}

/** Records a solve run of a bug and submits its K attempts as an array of `tasks` tasks. */
export async function submitClusterSolve(array: { settings: SolveSettings; tasks: number }, deps: Deps, report: Report = ignore): Promise<{ runId: string; jobId: string }> {
  const { settings, tasks } = array;
  checkTasks(tasks);
  const cluster = newCluster(dealShares({ indices: [...Array(settings.k).keys()], recheck: [] }, tasks));
  const runId = await createSolveRun(settings, deps, cluster);
  const jobId = await submitRecordedRun(deps.store, runId, cluster);
  report({ type: 'run-started', runId, kind: 'solve' });
  return { runId, jobId };
}

/** Submits a new array for what an ended cluster run left: rollouts that never finished, checks cut off. */
export async function resumeClusterInjection(store: Store, runId: string, tasks?: number): Promise<{ runId: string; jobId: string }> {
  const run = store.get('runs', runId);
  const cluster = run && clusterOf(run);
  if (!run || !cluster) throw new RecordNotFoundError('runs', runId);
  const states = await reconcileClusterRun(store, runId);
  if (states.some((t) => !isTerminal(t.state))) throw new ClusterRunError(`run ${runId} still has tasks of job ${cluster.jobId} running; cancel it first (\`bugbench cancel ${runId}\`)`);
  const work = unfinishedWork(store, runId);
  if (work.indices.length === 0 && work.recheck.length === 0) return { runId, jobId: cluster.jobId };
  const shares = dealShares(work, tasks ?? cluster.tasks);
  // The new array runs where the first did.
  const jobId = await submitArray(store, runId, { shares, engines: cluster.engines });
  const next: ClusterInfo = { ...cluster, jobId, tasks: shares.length, shares, earlierJobs: [...cluster.earlierJobs, cluster.jobId], submittedAt: new Date().toISOString() };
  store.transact((tx) => {
    tx.patch('runs', runId, { status: 'running', finishedAt: null, error: null, cluster: next });
    for (const index of work.indices) tx.patch('rollouts', `${runId}-r${index + 1}`, { status: 'pending', detail: null });
  });
  return { runId, jobId };
}

export interface TaskState {
  task: number;
  state: JobState;
  rawState: string;
  node: string | null;
  reason: string | null;
}

/** The states of the array's tasks (a task Slurm no longer knows counts as ended). */
export async function clusterTaskStates(cluster: ClusterInfo): Promise<TaskState[]> {
  const { client } = slurmClient();
  let jobs: SlurmJobInfo[] = [];
  try {
    jobs = client.api.parseJobs((await client.request('GET', client.api.paths.job(cluster.jobId))).body);
  } catch (error) {
    if (!(error instanceof SlurmRequestError && error.jobNotFound)) throw error;
  }
  return cluster.shares.map((_, task) => {
    const job = jobs.find((j) => j.arrayTaskId === task) ?? jobs.find((j) => j.arrayTaskId === undefined);
    if (!job) return { task, state: 'unknown', rawState: '', node: null, reason: `Slurm no longer knows job ${cluster.jobId}` };
    return { task, state: job.status.state, rawState: job.status.rawState, node: job.node, reason: job.status.reason };
  });
}

/**
 * Brings the run's records in line with its tasks: rollouts of an ended task
 * that did not finish become `interrupted`; once every task has ended, the run
 * gets its final status. Returns the tasks' states.
 */
export async function reconcileClusterRun(store: Store, runId: string, cancelled = false): Promise<TaskState[]> {
  store.refresh();
  const run = store.get('runs', runId);
  const cluster = run && clusterOf(run);
  if (!run || !cluster || !cluster.jobId) return [];
  const states = await clusterTaskStates(cluster);
  const ended = (s: TaskState) => isTerminal(s.state) || s.state === 'unknown';
  const now = new Date().toISOString();
  // Checks a dead task was running become cancelled (and are checked again by a resume).
  recoverAbandoned(store);
  const prefix = run.kind === 'solve' ? 'a' : 'r';
  const ending = store.transact((tx) => {
    for (const s of states.filter(ended)) {
      for (const index of cluster.shares[s.task]?.indices ?? []) {
        const id = `${runId}-${prefix}${index + 1}`;
        const rollout = tx.get('rollouts', id);
        if (!rollout || (rollout.status !== 'pending' && rollout.status !== 'running')) continue;
        const detail = `task ${s.task} of job ${cluster.jobId} ended (${s.rawState || s.state}${s.reason ? `: ${s.reason}` : ''}) before it finished`;
        tx.patch('rollouts', id, { status: 'interrupted', finishedAt: now, detail });
        // An attempt cut off before its verdict does not count towards the solve rate.
        const attempt = tx.get('attempts', id);
        if (attempt && (attempt.status === 'pending' || attempt.status === 'running')) tx.patch('attempts', id, { status: 'interrupted', detail });
      }
    }
    const current = tx.get('runs', runId)!;
    if (current.status === 'running' && states.every(ended)) {
      const left = store.all('rollouts').some((r) => r.runId === runId && ['interrupted', 'pending', 'running'].includes(tx.get('rollouts', r.id)!.status));
      const status = cancelled || states.some((s) => s.state === 'cancelled') ? 'cancelled' : left ? 'interrupted' : 'finished';
      tx.patch('runs', runId, { status, finishedAt: now });
      return true;
    }
    return false;
  });
  // A solve run's attempts, once all have ended, give the bug its solve rate.
  if (ending && run.kind === 'solve') summarizeSolve(store, runId);
  return states;
}

/** Cancels the run's array (every task); the tasks stop their rollouts and remove their containers. */
export async function cancelClusterRun(store: Store, runId: string): Promise<void> {
  const run = store.get('runs', runId);
  const cluster = run && clusterOf(run);
  if (!run) throw new RecordNotFoundError('runs', runId);
  if (!cluster) throw new UsageError(`run ${runId} does not run on a cluster; stop it with Ctrl-C where it runs`);
  const { client } = slurmClient();
  try {
    await client.request('DELETE', client.api.paths.job(cluster.jobId));
  } catch (error) {
    if (!(error instanceof SlurmRequestError && error.jobNotFound)) throw error;
  }
}
