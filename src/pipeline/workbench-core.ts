/**
 * Everything the workbench asks of the core, in one object: set-up, images,
 * runs and their trajectories, checks, solving, higher-order bugs, review and
 * training. The screens keep only view state and call this; a test hands the
 * workbench a core of its own (a workspace of its own, or a function
 * replaced). Operations take (settings, deps, report) as everywhere else; the
 * core fills in the workspace store.
 */
import { existsSync, statSync } from 'node:fs';
import { readTrajectory, type Trajectory } from '../agent/trajectory.js';
import { errorMessage } from '../errors.js';
import type { Progress } from '../progress.js';
import { expandHome } from '../paths.js';
import { adoptByName } from './adopt-by-name.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { engineStatuses, type EngineStatus } from '../sandbox/engines.js';
import { listRepoImages, type RepoImage } from '../sandbox/repo-images.js';
import { countsByImage, filterBugs, type BugFilter } from '../store/queries.js';
import type { AttemptRecord, BugRecord, JobRecord, RolloutRecord, RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { readLogTail } from '../training/log-tail.js';
import { defaultEngine } from '../training/queue.js';
import type { EngineName } from '../training/types.js';
import { openStoredCheck, type StoredCheckSession, type StoredCheckSettings } from './bug-checks.js';
import { bugDetails, type BugDetails } from './bug-details.js';
import { cancelClusterRun } from './cluster-run.js';
import { diagnose, fix, type DoctorReport } from './doctor.js';
import type { Report } from './events.js';
import { buildHigherOrder, type HigherOrderResult, type HigherOrderSettings } from './higher-order.js';
import { buildImageOverBugs } from './image-build.js';
import type { InjectResult } from './inject.js';
import { defaultPolicy, type PolicyName } from './policy.js';
import { acceptBug, rejectBug } from './review.js';
import { solveBug, type SolveResult, type SolveSettings } from './solve.js';
import { startInjection, type InjectionStart } from './start-injection.js';
import { recoveredStore } from './startup.js';
import { cancelJob, jobLogs, refreshJobs, submitTraining, type TrainingSubmit } from './training.js';

export { BUG_STATUSES, tagOf } from '../store/records.js';
export { describeCounts } from '../store/queries.js';
export type { BugFilter } from '../store/queries.js';
export { isResumable, type InjectionStart } from './start-injection.js';

/** What work started from the workbench runs with: the signal that cancels it. */
export interface WorkDeps {
  signal?: AbortSignal;
}

export interface WorkbenchCore {
  diagnose(): Promise<DoctorReport>;
  fix(progress: Progress): Promise<DoctorReport>;
  /** Calls `listener` whenever the workspace changes (here or, once refreshed, in another process); returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Takes in what other processes wrote. */
  refresh(): void;

  listImages(): Promise<RepoImage[]>;
  engines(): Promise<EngineStatus[]>;
  /** `kept`: the tag a rebuild left on the image the tag's bugs were checked on (pipeline/image-build.ts). */
  buildImage(dir: string, progress: Progress): Promise<{ tag: string; kept?: { tag: string; bugs: number } }>;
  /** Adopts an image bugbench did not build, as it is (sandbox/adopt.ts): `tag` is the name it is listed under, `root` where its repository is. */
  adoptImage(name: string, progress: Progress): Promise<{ tag: string; root: string }>;

  /** A seed for a new run: a different one each time. */
  newSeed(): number;
  defaultPolicy(): PolicyName;
  runs(): RunRecord[];
  run(id: string): RunRecord | undefined;
  rolloutsOf(runId: string): RolloutRecord[];
  rollout(id: string): RolloutRecord | undefined;
  /** A solver attempt (its id is its rollout's). */
  attempt(id: string): AttemptRecord | undefined;
  /** A rollout's recorded trajectory (read again only once its file has grown); undefined when there is none yet. */
  trajectory(rolloutId: string): Trajectory | undefined;
  /** A new injection run (here or on Slurm) or the resume of one: the CLI's `inject` does the same (start-injection.ts). */
  startInjection(start: InjectionStart, deps: WorkDeps, report: Report): Promise<InjectResult>;
  cancelClusterRun(runId: string): Promise<void>;

  bugs(filter?: BugFilter): BugRecord[];
  bug(id: string): BugRecord | undefined;
  /** Counts of bugs by status, per image tag. */
  bugCounts(): ReturnType<typeof countsByImage>;
  bugDetails(id: string): BugDetails | undefined;
  /** The last lines of a log file (up to 256 KiB), marked when cut. */
  logTail(path: string): string[];
  openChecks(settings: StoredCheckSettings, deps: WorkDeps, report: Report): StoredCheckSession;
  solve(settings: SolveSettings, deps: WorkDeps, report: Report): Promise<SolveResult>;
  higherOrder(settings: HigherOrderSettings, deps: WorkDeps, report: Report): Promise<HigherOrderResult>;
  accept(id: string, reason?: string): BugRecord;
  reject(id: string, reason: string): BugRecord;

  jobs(): JobRecord[];
  refreshJobs(): Promise<{ errors: string[] }>;
  jobLog(id: string, tailBytes: number): Promise<string[]>;
  submitTraining(options: Omit<TrainingSubmit, 'settings' | 'progress'>): Promise<{ job: JobRecord; created: boolean }>;
  cancelJob(id: string): Promise<JobRecord>;
  defaultTrainingEngine(): EngineName | undefined;
}

const LOG_TAIL_BYTES = 256 * 1024;

/** A log's tail as lines, saying how much came before when it was cut. */
export function tailLines(path: string, tailBytes = LOG_TAIL_BYTES): string[] {
  if (!existsSync(path)) return [`(no log at ${path})`];
  const size = statSync(path).size;
  const tail = readLogTail(path, tailBytes);
  const lines = tail.text.replace(/\n$/, '').split('\n');
  return tail.truncated ? [`[… ${size - Buffer.byteLength(tail.text)} bytes before these]`, ...lines] : lines;
}

/** The core over a workspace: the given store, or the workspace's own (opened when first needed, abandoned work marked). */
export function workbenchCore(given?: Store): WorkbenchCore {
  let opened = given;
  const store = () => (opened ??= recoveredStore());
  const trajectories = new Map<string, { size: number; trajectory: Trajectory }>();
  let lastSeed = -1;
  return {
    diagnose,
    fix,
    subscribe: (listener) => store().onChange(listener),
    refresh: () => void store().refresh(),

    listImages: () => listRepoImages(defaultContainerEngine(), countsByImage(store().all('bugs'))),
    engines: () => engineStatuses(),
    buildImage: async (dir, progress) => {
      const built = await buildImageOverBugs(defaultContainerEngine(), store(), { dir: expandHome(dir), progress });
      return { tag: built.tag, ...(built.kept ? { kept: { tag: built.kept.tag, bugs: built.kept.bugs } } : {}) };
    },
    adoptImage: async (name, progress) => {
      const adopted = await adoptByName(defaultContainerEngine(), name, { progress });
      return { tag: adopted.image, root: adopted.world.root };
    },

    newSeed: () => {
      // Time-based, but never the same twice in a session.
      lastSeed = Math.max(lastSeed + 1, Date.now() % 100_000);
      return lastSeed;
    },
    defaultPolicy: () => defaultPolicy(),
    runs: () => [...store().all('runs')].sort((a, b) => b.startedAt.localeCompare(a.startedAt)),
    run: (id) => store().get('runs', id),
    rolloutsOf: (runId) =>
      store()
        .all('rollouts')
        .filter((r) => r.runId === runId)
        .sort((a, b) => a.index - b.index),
    rollout: (id) => store().get('rollouts', id),
    attempt: (id) => store().get('attempts', id),
    trajectory: (rolloutId) => {
      const rollout = store().get('rollouts', rolloutId);
      const path = rollout && store().abs(rollout.trajectory);
      if (!path || !existsSync(path)) return undefined;
      const size = statSync(path).size;
      const cached = trajectories.get(path);
      if (cached && cached.size === size) return cached.trajectory;
      const trajectory = readTrajectory(path);
      trajectories.set(path, { size, trajectory });
      return trajectory;
    },
    startInjection: (start, deps, report) => startInjection(start, { store: store(), signal: deps.signal }, report),
    cancelClusterRun: (runId) => cancelClusterRun(store(), runId),

    bugs: (filter = {}) => filterBugs(store().all('bugs'), filter),
    bug: (id) => store().get('bugs', id),
    bugCounts: () => countsByImage(store().all('bugs')),
    bugDetails: (id) => {
      try {
        return bugDetails(store(), id);
      } catch {
        return undefined;
      }
    },
    logTail: (path) => {
      try {
        return tailLines(path);
      } catch (error) {
        return [`(cannot read ${path}: ${errorMessage(error)})`];
      }
    },
    openChecks: (settings, deps, report) => openStoredCheck(settings, { store: store(), signal: deps.signal }, report),
    solve: (settings, deps, report) => solveBug(settings, { store: store(), signal: deps.signal }, report),
    higherOrder: (settings, deps, report) => buildHigherOrder(settings, { store: store(), signal: deps.signal }, report),
    accept: (id, reason) => acceptBug(store(), id, reason ?? null),
    reject: (id, reason) => rejectBug(store(), id, reason),

    jobs: () => [...store().all('jobs')].sort((a, b) => b.submittedAt.localeCompare(a.submittedAt)),
    refreshJobs: async () => ({ errors: (await refreshJobs(store())).errors }),
    jobLog: async (id, tailBytes) => (await jobLogs(store(), id, tailBytes)).text.replace(/\n$/, '').split('\n'),
    submitTraining: (options) => submitTraining(store(), options),
    cancelJob: (id) => cancelJob(store(), id),
    defaultTrainingEngine: () => defaultEngine(),
  };
}
