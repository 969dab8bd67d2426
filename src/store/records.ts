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
  /** The full report (relative path), with FAIL_TO_PASS / PASS_TO_PASS beside it in tests.json. */
  report: string | null;
  failToPass: number;
  passToPass: number;
}

export interface Review {
  decision: 'accepted' | 'rejected';
  reason: string | null;
  by: string;
  at: string;
}

export interface BugRecord {
  id: string;
  status: BugStatus;
  image: string;
  imageId: string | null;
  repo: string;
  baseCommit: string;
  strategy: string;
  policy: string;
  model: string;
  order: number;
  parentId: string | null;
  /** The solver attempt a higher-order bug comes from. */
  attemptId: string | null;
  runId: string | null;
  rollout: string | null;
  /** Relative path of the trajectory that made it. */
  trajectory: string | null;
  createdAt: string;
  updatedAt: string;
  /** Hash of the normalised bug_inject.diff; equal hashes on one image and commit are duplicates. */
  fingerprint: string;
  duplicateOf: string | null;
  /** The process checking it while status is `checking`. */
  checkingBy: ProcessIdentity | null;
  check: CheckSummary | null;
  review: Review | null;
}

export type RunStatus = 'running' | 'finished' | 'cancelled' | 'interrupted' | 'failed';

export interface RunRecord {
  id: string;
  kind: 'inject' | 'solve';
  status: RunStatus;
  image: string;
  strategy: string;
  policy: string;
  model: string;
  n: number;
  /** Everything needed to run it again (`inject --resume`). */
  options: Record<string, unknown>;
  owner: ProcessIdentity;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
}

export type RolloutStatus = 'pending' | 'running' | 'submitted' | 'max-steps' | 'budget' | 'error' | 'cancelled' | 'interrupted';

export interface RolloutRecord {
  id: string;
  runId: string;
  role: 'injector' | 'solver';
  index: number;
  status: RolloutStatus;
  steps: number;
  costUsd: number;
  tokens: number;
  durationMs: number;
  trajectory: string;
  bugId: string | null;
  detail: string | null;
  startedAt: string | null;
  finishedAt: string | null;
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

/** Every time a bug's checks ran to a verdict or were cancelled. */
export interface CheckRecord extends CheckSummary {
  id: string;
  bugId: string;
}

export interface Collections {
  bugs: BugRecord;
  runs: RunRecord;
  rollouts: RolloutRecord;
  images: ImageRecord;
  reviews: ReviewRecord;
  checks: CheckRecord;
}

export type CollectionName = keyof Collections;
export const COLLECTIONS: CollectionName[] = ['bugs', 'runs', 'rollouts', 'images', 'reviews', 'checks'];
