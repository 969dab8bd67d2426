/**
 * Bringing an artifact folder made elsewhere (by hand, by another tool) into
 * the library: it is copied in whole, recorded, and checked like any bug.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { ARTIFACT_FILES, loadArtifact } from '../bugs/artifact.js';
import { DEFAULT_CHECK_PARAMS } from '../bugs/meta.js';
import { UsageError } from '../errors.js';
import { dockerClient } from '../sandbox/docker.js';
import { inspectRepoImage } from '../sandbox/repo-image.js';
import type { Store } from '../store/store.js';
import { checkStoredBug, type StoredCheck, type StoredCheckOptions } from './bug-checks.js';
import { addBug } from './new-bug.js';

export interface ImportOptions extends StoredCheckOptions {
  /** The image to judge it on, when its meta.json names none (or another). */
  image?: string;
  docker?: Docker;
}

export async function importArtifact(store: Store, folder: string, options: ImportOptions = {}): Promise<StoredCheck> {
  const artifact = loadArtifact(folder);
  const image = options.image ?? artifact.meta?.image.tag;
  if (!image) throw new UsageError(`${folder} has no meta.json naming its image; pass --image TAG`);
  const facts = await inspectRepoImage(options.docker ?? dockerClient(), image);
  const baseCommit = artifact.meta?.baseCommit ?? facts.commit;
  if (!baseCommit) throw new UsageError(`cannot tell the base commit: neither ${folder}/meta.json nor image ${image} names one`);
  const staging = store.abs(join('bugs', `.import-${process.pid}-${Date.now()}`));
  mkdirSync(staging, { recursive: true });
  try {
    for (const name of Object.values(ARTIFACT_FILES)) {
      if (name !== ARTIFACT_FILES.meta && existsSync(join(artifact.dir, name))) copyFileSync(join(artifact.dir, name), join(staging, name));
    }
    const meta = artifact.meta;
    const bug = addBug(store, staging, {
      image,
      imageId: facts.imageId,
      repo: facts.repo,
      baseCommit,
      strategy: meta?.strategy ?? 'handwritten',
      policy: meta?.policy ?? 'human',
      model: meta?.model ?? 'human',
      order: meta?.order ?? (artifact.predPatch ? 2 : 1),
      parentId: meta?.parentId ?? null,
      attemptId: null,
      runId: null,
      rollout: null,
      trajectory: null,
      params: { ...DEFAULT_CHECK_PARAMS, ...meta?.params, ...options.params },
      extraMeta: { importedFrom: artifact.dir },
    });
    return await checkStoredBug(store, bug.id, options);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
