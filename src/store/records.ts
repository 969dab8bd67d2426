/**
 * What the workspace store keeps, one collection per kind of thing. Records
 * stay small and flat — they are all read when the store opens — and point at
 * the large things (artifacts, check reports, logs, trajectories) by paths
 * relative to the workspace, so a workspace can be moved or shared.
 */
import type { ProcessIdentity } from '../process-identity.js';

export const SCHEMA_VERSION = 1;

export const BUG_STATUSES = ['checking', 'valid', 'invalid', 'cancelled', 'accepted', 'rejected', 'duplicate'] as const;
export type BugStatus = (typeof BUG_STATUSES)[number];

/** The statuses a run's yield counts as valid bugs: a duplicate passed the checks too, but it is not a new bug. */
export const YIELD_STATUSES: readonly BugStatus[] = ['valid', 'accepted'];

export function countsAsValid(status: BugStatus): boolean {
  return YIELD_STATUSES.includes(status);
}

/** Statuses of a bug whose checks were cut off (cancelled, or left `checking` by a process that died): a resume of its run checks it again. */
export const CUT_OFF_STATUSES: readonly BugStatus[] = ['cancelled', 'checking'];

/** Statuses of a bug that passed its checks (what counts as "valid" in every count). */
export const PASSED_STATUSES: readonly BugStatus[] = ['valid', 'accepted'];

/** The latest verdict of a bug's checks. */
export interface CheckSummary {
  valid: boolean;
  /** The checks were interrupted before a verdict. */
  cancelled: boolean;
  failedCheck: string | null;
  /** Why it failed (the failed check's reason), or a short summary. */
  reason: string;
  /** One letter per check in order: p pass, f fail, s skipped, c cancelled. */
  verdicts: string;
  at: string;
  /** The check's folder inside the bug's (`checks/<time>`): report.json, tests.json and the logs. */
  dir: string | null;
  failToPass: number;
  passToPass: number;
  /** Tests that changed result between runs of one state, with their flips (absent in summaries written before #30). */
  flaky?: { id: string; flips: number }[];
  /**
   * A finding: a reader of a runner bugbench knows claimed the logs but could
   * not read some of them, so the parser's map was taken on trust there
   * ("TAP (node --test): original: the TAP stream is not whole: …").
   * Absent on records written before it was kept.
   */
  parserUnverified?: string | null;
}

export interface Review {
  decision: 'accepted' | 'rejected';
  reason: string | null;
  by: string;
  at: string;
}

/** The latest solve run of a bug: its solve rate and the injection reward (equation 1). */
export interface SolveSummary {
  runId: string;
  attempts: number;
  solved: number;
  solveRate: number;
  injectReward: number;
  alpha: number;
  at: string;
}

/** BugPilot's analysis: a bug report, a category (A–J), patch statistics (Table 7). */
export interface Analysis {
  /** Who wrote `bugs/<id>/report.md`: a model, or bugbench's template from the failing tests. */
  report: { source: 'model' | 'template'; model: string | null };
  /** A letter A–J, or `uncategorized` when no model judged it. */
  category: string;
  categoryReason: string | null;
  stats: {
    linesOfCode: number;
    linesOfDocumentation: number;
    filesEdited: number;
    filesCreated: number;
    filesDeleted: number;
    diffTokens: number;
    tokenizer: string;
  };
  costUsd: number;
  at: string;
}

export interface BugRecord {
  id: string;
  status: BugStatus;
  /** The image tag; its id at creation is in the artifact's meta.json. */
  image: string;
  repo: string;
  baseCommit: string;
  strategy: string;
  policy: string;
  model: string;
  order: number;
  parentId: string | null;
  /** The solver attempt a higher-order bug comes from. */
  attemptId: string | null;
  /** The run and rollout that made it (its trajectory is `runs/<runId>/<rollout>.jsonl`). */
  runId: string | null;
  rollout: string | null;
  createdAt: string;
  updatedAt: string;
  /** Hash of the normalised bug_inject.diff; equal hashes on one image and commit are duplicates. */
  fingerprint: string;
  duplicateOf: string | null;
  /** The process checking it while status is `checking`. */
  checkingBy: ProcessIdentity | null;
  check: CheckSummary | null;
  review: Review | null;
  solve?: SolveSummary | null;
  analysis?: Analysis | null;
}

export type RunStatus = 'running' | 'finished' | 'cancelled' | 'interrupted' | 'failed';

export interface RunRecord {
  id: string;
  kind: 'inject' | 'solve';
  status: RunStatus;
  /** The run's image; a run over a corpus: its first image, with every image in `images`. */
  image: string;
  /** A run over a corpus of images (pipeline/corpus.ts): every image, in order; absent on a run of one image. */
  images?: string[];
  strategy: string;
  policy: string;
  model: string;
  /** The server of an openai run (an anthropic run's when ANTHROPIC_BASE_URL was set); never its key. */
  baseUrl?: string | null;
  n: number;
  /** Everything needed to run it again (`inject --resume`). */
  options: Record<string, unknown>;
  owner: ProcessIdentity;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
  /** A run made by a cluster job array (cluster-run.ts): the engine's job, its tasks, and the jobs of earlier submissions. */
  cluster?: ClusterRunInfo | null;
}

export interface ClusterRunInfo {
  engine: 'slurm';
  jobId: string;
  tasks: number;
  /** The job arrays submitted before this one (a resume submits a new one). */
  earlierJobs: string[];
  /** The job folder (scripts, task outputs), relative to the workspace. */
  dir: string;
  submittedAt: string;
  /** The engines its tasks were given as DOCKER_HOST (bwrap:///DIR of packed images); none: each node's own engine. */
  engines?: string;
}

/** `no-bug`: a FeatAdd rollout whose feature broke no test (a normal outcome). */
export type RolloutStatus = 'pending' | 'running' | 'submitted' | 'no-bug' | 'max-steps' | 'budget' | 'error' | 'cancelled' | 'interrupted';

/** The short name of a rollout ("r3") or a solver attempt ("a3") from its id. */
export function tagOf(rolloutId: string): string {
  return /-([ra]\d+)$/.exec(rolloutId)?.[1] ?? rolloutId;
}

export interface RolloutRecord {
  id: string;
  runId: string;
  role: 'injector' | 'solver';
  index: number;
  status: RolloutStatus;
  /** A rollout of a run over a corpus: the image it runs on (else the run's image). */
  image?: string | null;
  steps: number;
  costUsd: number;
  tokens: number;
  durationMs: number;
  trajectory: string;
  bugId: string | null;
  detail: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** The Docker engine of its latest try (several engines: placement.ts). */
  engine?: string | null;
  /** On a cluster: the array task (0-based) and the node its latest try ran on. */
  task?: number | null;
  node?: string | null;
  /** Tries started (a try lost with its engine or its cluster task is tried again). */
  tries?: number;
}

/** A solver attempt on a bug: one solver rollout (same id) and the evaluation of its patch. */
export interface AttemptRecord {
  id: string;
  bugId: string;
  runId: string;
  index: number;
  /** The offline solver variant (oracle, partial, noop) or the model. */
  solver: string;
  /** The policy that played the solver, and its server (openai). */
  policy?: string;
  baseUrl?: string | null;
  statement: 'template' | 'report';
  status: 'pending' | 'running' | 'evaluated' | 'unsubmitted' | 'cancelled' | 'interrupted';
  solved: boolean | null;
  /** FAIL_TO_PASS and PASS_TO_PASS tests that did not pass. */
  failing: string[];
  /** Equation (2): +1 solved, −1 otherwise. */
  reward: 1 | -1 | null;
  /** The attempt's patch (the diff against its one-commit repository), relative to the workspace. */
  patch: string | null;
  evalLog: string | null;
  /** How long the evaluation's test script ran. */
  evalRunMs: number | null;
  detail: string | null;
  createdAt: string;
}

/** A training job submitted to a cluster engine, with the last state seen (an engine forgets finished jobs). */
export interface JobRecord {
  /** `<engine>-<engine's id>`, e.g. `slurm-12`. */
  id: string;
  engine: string;
  /** The engine's handle, kept as it is (see training/types.ts). */
  handle: Record<string, unknown> & { id: string; engine: string; key: string };
  key: string;
  kind: string;
  format: string;
  /** Which bugs the dataset holds (by status when submitted) and how many lines it has. */
  status: string;
  bugCount: number;
  lines: number;
  /** The exported dataset and the job's folder, relative to the workspace. */
  dataset: string;
  workdir: string;
  command: string;
  state: string;
  rawState: string;
  exitCode: number | null;
  reason: string | null;
  submittedAt: string;
  updatedAt: string;
  /** When `queue cancel` (or Training's x) asked the engine to stop it; absent when never asked. */
  cancelRequestedAt?: string;
}

/** A repo image some run used. */
export interface ImageRecord {
  id: string;
  imageId: string | null;
  repo: string;
  commit: string;
  firstSeen: string;
  lastUsed: string;
}

/** Every review decision, in order (the bug keeps the latest). */
export interface ReviewRecord extends Review {
  id: string;
  bugId: string;
}

export interface Collections {
  bugs: BugRecord;
  runs: RunRecord;
  rollouts: RolloutRecord;
  images: ImageRecord;
  reviews: ReviewRecord;
  attempts: AttemptRecord;
  jobs: JobRecord;
}

export type CollectionName = keyof Collections;
export const COLLECTIONS: CollectionName[] = ['bugs', 'runs', 'rollouts', 'images', 'reviews', 'attempts', 'jobs'];

/** Where a bug's things are, relative to the workspace. */
export const bugFolder = (id: string): string => `bugs/${id}`;

/** The folder of a bug's latest check (report.json, tests.json, logs), if it has one. */
export function checkFolder(bug: Pick<BugRecord, 'id' | 'check'>): string | null {
  return bug.check?.dir ? `${bugFolder(bug.id)}/${bug.check.dir}` : null;
}

/** The trajectory of the rollout that made a bug, if an agent made it. */
export function trajectoryOf(bug: Pick<BugRecord, 'runId' | 'rollout'>): string | null {
  return bug.runId && bug.rollout ? `runs/${bug.runId}/${bug.rollout}.jsonl` : null;
}
