/**
 * Bringing an artifact folder made elsewhere (by hand, by another tool) into
 * the library: it is copied in whole, recorded, and checked like any bug.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_FILES, loadArtifact } from '../bugs/artifact.js';
import { DEFAULT_CHECK_PARAMS } from '../bugs/meta.js';
import { UsageError } from '../errors.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { recordedImageName } from '../sandbox/image-names.js';
import { inspectRepoImage } from '../sandbox/repo-images.js';
import { checkStoredBug, type StoredCheck, type StoredCheckSettings } from './bug-checks.js';
import { ignore, type Deps, type Report } from './events.js';
import { analyseBug } from './analysis.js';
import { addBug } from './new-bug.js';
import { defaultPolicy, type ModelSettings } from './policy.js';

export interface ImportSettings extends Omit<StoredCheckSettings, 'bugId'> {
  /** The artifact folder. */
  folder: string;
  /** The image to judge it on, when its meta.json names none (or another). */
  image?: string;
  /** Who writes the bug report and the category of a valid bug (default: the default policy). */
  analysis?: ModelSettings;
}

export async function importArtifact(settings: ImportSettings, deps: Deps, report: Report = ignore): Promise<StoredCheck> {
  const { store } = deps;
  const { folder, image: given, analysis, ...check } = settings;
  const artifact = loadArtifact(folder);
  const named = given ?? artifact.meta?.image.tag;
  if (!named) throw new UsageError(`${folder} has no meta.json naming its image; pass --image TAG`);
  // Filed under the name inject would record (`bugbench/repo-x` is `bugbench/repo-x:latest`), so the same bug on it is a duplicate.
  const image = recordedImageName(named);
  const facts = await inspectRepoImage(deps.engine ?? defaultContainerEngine(), image);
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
      params: { ...DEFAULT_CHECK_PARAMS, ...meta?.params, ...check.params },
      extraMeta: { importedFrom: artifact.dir },
    });
    report({ type: 'bug-added', bug });
    const checked = await checkStoredBug({ ...check, bugId: bug.id }, deps, report);
    if (!checked.bug.check?.valid) return checked;
    await analyseBug({ store, id: bug.id }, analysis ?? { policy: defaultPolicy() }, { signal: deps.signal });
    return { ...checked, bug: store.get('bugs', bug.id)! };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
