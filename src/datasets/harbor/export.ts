/**
 * Writing bugs as Harbor task folders. Each bug's test files are read in a
 * container of its repo image where its starting state is built (one
 * container per image, reset by git between bugs); everything else comes
 * from the store. A bug that cannot be exported (its image is gone or has
 * changed, a patch no longer applies, the image has no python3 for the
 * verifier) is skipped with the reason.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { ContainerEngine } from '../../sandbox/port.js';
import { loadArtifact } from '../../bugs/artifact.js';
import { parseDiff, touchedPaths } from '../../bugs/diff.js';
import { buildState } from '../../bugs/repo-state.js';
import { installArtifact } from '../../bugs/test-run.js';
import { BugbenchError, CancelledError, errorMessage } from '../../errors.js';
import { PACKAGE_ROOT } from '../../paths.js';
import type { Progress } from '../../progress.js';
import { defaultContainerEngine, openSandbox } from '../../sandbox/engine-table.js';
import { Sandbox } from '../../sandbox/sandbox.js';
import { bugFolder, type BugRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { BugImages } from '../../bugs/bug-image.js';
import { ExportSkip, placedMaterial, type BugMaterial } from '../materials.js';
import { harborTaskFiles, taskFolder, type TaskFile } from './task-files.js';
import { HARBOR_SCHEMA_VERSION } from './task-toml.js';
import { chooseTestFiles, listStartingState, readTestFiles, type TestFiles } from './test-files.js';

export interface HarborWritten {
  count: number;
  bugIds: string[];
  skipped: { id: string; reason: string }[];
  manifest: Record<string, unknown>;
}

export function verifierScript(): string {
  return readFileSync(join(PACKAGE_ROOT, 'data', 'harbor', 'verify.py'), 'utf8');
}

/** Writes a task's files under `folder`, refusing any path that would leave it. */
export function writeTaskFiles(folder: string, files: TaskFile[]): void {
  for (const file of files) {
    const path = resolve(folder, file.path);
    if (relative(folder, path).startsWith('..')) throw new ExportSkip(`its file ${file.path} would land outside the task folder`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
    if (file.mode !== undefined) chmodSync(path, file.mode);
  }
}

/** The image id the tag names now, or a skip saying why the tag cannot be used. */
async function currentImageId(engine: ContainerEngine, tag: string): Promise<string> {
  const image = await engine.inspectImage(tag);
  if (!image) throw new ExportSkip(`its image ${tag} is not on this engine; build or load it first (\`bugbench images\`)`);
  return image.id;
}

/** What the verifier of one bug puts back, read in `sandbox` (a container of the bug's image). */
async function testFilesOf(store: Store, sandbox: Sandbox, m: BugMaterial): Promise<TestFiles> {
  const artifact = loadArtifact(store.abs(bugFolder(m.record.id)));
  await installArtifact(sandbox, artifact);
  await buildState(sandbox, artifact, m.baseCommit, { bug: true, weaken: true });
  const listing = await listStartingState(sandbox);
  const choice = chooseTestFiles(listing, m.testFiles, touchedPaths(parseDiff(m.fixPatch)));
  const files = await readTestFiles(sandbox, m.baseCommit, m.testFiles, choice.restore);
  return { clear: m.testFiles, files, keep: choice.keep };
}

interface ImageExport {
  engine: ContainerEngine;
  verifier: string;
  progress?: Progress;
  /** Stops the export between bugs; its container is removed before the CancelledError goes up. */
  signal?: AbortSignal;
}

async function exportImage(store: Store, image: string, materials: BugMaterial[], staging: string, out: HarborWritten, how: ImageExport): Promise<void> {
  const { engine, verifier, progress, signal } = how;
  let imageId: string;
  try {
    imageId = await currentImageId(engine, image);
  } catch (error) {
    if (!(error instanceof ExportSkip)) throw error;
    for (const m of materials) out.skipped.push({ id: m.record.id, reason: error.message });
    return;
  }
  const sandbox = await openSandbox({ image, runId: `export-harbor-${process.pid}`, engine });
  try {
    // The verifier (tests/verify.py) and the bug's parser run in the task's environment: an image without python3 cannot score a trial.
    if ((await sandbox.exec('command -v python3', { timeoutMs: 60_000 })).exitCode !== 0) {
      const reason = `its image ${image} has no python3, which a Harbor task's verifier (tests/verify.py) and parser run in; export it as swebench or rl rows, or add python3 to the image`;
      for (const m of materials) out.skipped.push({ id: m.record.id, reason });
      return;
    }
    for (const m of materials) {
      if (signal?.aborted) throw new CancelledError('the export');
      progress?.(`harbor: reading the test files of ${m.record.id} in ${image}`);
      try {
        if (m.imageId && m.imageId !== imageId) {
          throw new ExportSkip(`its image ${image} is now ${imageId.slice(0, 19)}, not ${m.imageId.slice(0, 19)} the bug was checked on; check the bug again on the new image or export it where the old one is`);
        }
        const testFiles = await testFilesOf(store, sandbox, m);
        writeTaskFiles(join(staging, taskFolder(m.record.id)), harborTaskFiles(m, { imageId, testFiles, verifier }));
        out.count += 1;
        out.bugIds.push(m.record.id);
      } catch (error) {
        if (!(error instanceof ExportSkip) && !(error instanceof BugbenchError)) throw error;
        out.skipped.push({ id: m.record.id, reason: errorMessage(error) });
      }
    }
  } finally {
    await sandbox.remove();
  }
}

/** Writes one Harbor task folder per bug into `staging`. */
export async function writeHarborTasks(
  store: Store,
  bugs: BugRecord[],
  staging: string,
  options: { engine?: ContainerEngine; progress?: Progress; signal?: AbortSignal } = {},
): Promise<HarborWritten> {
  const out: HarborWritten = { count: 0, bugIds: [], skipped: [], manifest: {} };
  const byImage = new Map<string, BugMaterial[]>();
  const engine = options.engine ?? defaultContainerEngine();
  const images = new BugImages(engine);
  for (const bug of bugs) {
    try {
      const m = await placedMaterial(store, bug, images);
      byImage.set(m.image, [...(byImage.get(m.image) ?? []), m]);
    } catch (error) {
      if (!(error instanceof ExportSkip)) throw error;
      out.skipped.push({ id: bug.id, reason: error.message });
    }
  }
  const verifier = verifierScript();
  for (const [image, materials] of byImage) {
    if (options.signal?.aborted) throw new CancelledError('the export');
    await exportImage(store, image, materials, staging, out, { engine, verifier, progress: options.progress, signal: options.signal });
  }
  out.manifest = { format: 'harbor', harbor_schema_version: HARBOR_SCHEMA_VERSION, tasks: out.bugIds.map((id) => ({ bug_id: id, folder: taskFolder(id) })), skipped: out.skipped };
  return out;
}
