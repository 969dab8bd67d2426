/**
 * A new bug enters the library in one way, whoever made it (an injection
 * rollout, an imported folder, a failed repair): its artifact is completed in
 * a staging folder inside the workspace with its meta.json, moved into
 * `bugs/<id>/` by one rename — so it is never seen half-written — and then
 * recorded, `checking`, until its checks give it a verdict.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_FILES } from '../bugs/artifact.js';
import { bugFingerprint } from '../bugs/fingerprint.js';
import type { BugMeta, CheckParams } from '../bugs/meta.js';
import { currentProcess } from '../process-identity.js';
import { writeJsonAtomic } from '../atomic.js';
import type { BugRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { bugDir } from './bug-checks.js';

export interface NewBug {
  image: string;
  imageId: string | null;
  repo: string;
  baseCommit: string;
  strategy: string;
  policy: string;
  model: string;
  order: number;
  parentId: string | null;
  attemptId: string | null;
  runId: string | null;
  rollout: string | null;
  /** Relative to the workspace. */
  trajectory: string | null;
  params: CheckParams;
  /** More for meta.json (seed, source folder, …). */
  extraMeta?: Record<string, unknown>;
}

/** The fingerprint of an artifact's buggy code: bug_inject.diff, and a higher-order bug's prediction on top. */
export function fingerprintOf(dir: string): string {
  const pred = join(dir, ARTIFACT_FILES.predPatch);
  const parts = [readFileSync(join(dir, ARTIFACT_FILES.bugInject), 'utf8'), ...(existsSync(pred) ? [readFileSync(pred, 'utf8')] : [])];
  return bugFingerprint(parts.join('\n'));
}

export function newBugId(repo: string, strategy: string): string {
  return `${repo}-${strategy.replace(/[^a-z0-9]+/gi, '-')}-${randomUUID().slice(0, 8)}`;
}

/** Moves a complete staged artifact into the library and records it as `checking`. */
export function addBug(store: Store, staging: string, bug: NewBug): BugRecord {
  const id = newBugId(bug.repo, bug.strategy);
  const now = new Date().toISOString();
  const meta: BugMeta & Record<string, unknown> = {
    image: { tag: bug.image, ...(bug.imageId ? { id: bug.imageId } : {}) },
    baseCommit: bug.baseCommit,
    strategy: bug.strategy,
    policy: bug.policy,
    model: bug.model,
    order: bug.order,
    parentId: bug.parentId,
    params: bug.params,
    createdAt: now,
    runId: bug.runId,
    rollout: bug.rollout,
    trajectory: bug.trajectory,
    ...bug.extraMeta,
  };
  writeJsonAtomic(join(staging, ARTIFACT_FILES.meta), meta);
  mkdirSync(store.abs('bugs'), { recursive: true });
  renameSync(staging, bugDir(store, id));
  const record: BugRecord = {
    id,
    status: 'checking',
    image: bug.image,
    repo: bug.repo,
    baseCommit: bug.baseCommit,
    strategy: bug.strategy,
    policy: bug.policy,
    model: bug.model,
    order: bug.order,
    parentId: bug.parentId,
    attemptId: bug.attemptId,
    runId: bug.runId,
    rollout: bug.rollout,
    createdAt: now,
    updatedAt: now,
    fingerprint: fingerprintOf(bugDir(store, id)),
    duplicateOf: null,
    checkingBy: currentProcess(),
    check: null,
    review: null,
  };
  store.transact((tx) => {
    tx.put('bugs', record);
    if (bug.rollout && tx.get('rollouts', bug.rollout)) tx.patch('rollouts', bug.rollout, { bugId: id });
  });
  return record;
}
