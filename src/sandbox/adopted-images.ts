/**
 * Images bugbench did not build, as bugbench found them: where the repository
 * is, as whom commands run, the environment the image's login shell gives,
 * and the snapshot (the image with its history past HEAD removed) that
 * sandboxes are made from. Kept in the workspace, keyed by the image's id, so
 * an image is looked at once; a tag that moves to another image is adopted
 * again.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorMessage, ImageNotAdoptedError, ImageNotFoundError, UsageError } from '../errors.js';
import { workspacePath } from '../paths.js';
import { LABEL_BASE, LABEL_COMMIT, LABEL_TOOLCHAIN } from './labels.js';
import type { ContainerEngine, ImageInfo } from './port.js';
import { BASE_IMAGE } from './image-names.js';
import { languageById } from './languages.js';
import { BUILT_WORLD, type ImageWorld } from './sandbox.js';

export interface AdoptedImage {
  /** The name it was adopted under (the first; others naming the same id find it too). */
  image: string;
  /** The image's id: what the record is keyed by. */
  imageId: string;
  /** The image sandboxes are made from: the adopted one with no history past HEAD. */
  runImage: string;
  world: ImageWorld;
  /** The name of the user commands run as, as the image knows it (older records: absent). */
  userName?: string;
  /** HEAD's commit in the repository. */
  commit: string;
  /** Language id ('' when none of bugbench's languages recognised the repository). */
  language: string;
  testCommand: string;
  /** What the user said instead of what bugbench found. */
  overrides: { root?: string; user?: string; testCommand?: string };
  adoptedAt: string;
  /** What the user should know of the image (tracked files it edited without committing them). */
  warning?: string;
}

const FILE = 'adopted-images.json';

function recordsPath(): string {
  return workspacePath(FILE);
}

export function readAdoptedImages(): AdoptedImage[] {
  const path = recordsPath();
  if (!existsSync(path)) return [];
  try {
    const records = JSON.parse(readFileSync(path, 'utf8')) as { images?: AdoptedImage[] };
    return records.images ?? [];
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON (${errorMessage(error)}); fix or remove it (images are adopted again)`);
  }
}

/** Adds or replaces the record of one image id; written whole, then renamed, so a crash leaves the old file. */
export function saveAdoptedImage(record: AdoptedImage): void {
  const path = recordsPath();
  const images = [...readAdoptedImages().filter((r) => r.imageId !== record.imageId), record];
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ images }, null, 2)}\n`);
  renameSync(temp, path);
}

export function adoptedById(imageId: string): AdoptedImage | undefined {
  return readAdoptedImages().find((r) => r.imageId === imageId);
}

/** How sandboxes of an image are made: from which image, in which world. */
export interface ImageRun {
  runImage: string;
  world: ImageWorld;
  /** The record, for an adopted image. */
  adopted?: AdoptedImage;
}

/**
 * True for a repository image bugbench built: its labels say which commit it
 * holds. A base's label is no sign: an image made `FROM bugbench/base` has it
 * too, with its repository wherever its maker put it, and is adopted.
 */
export function builtByBugbench(labels: Record<string, string>): boolean {
  return Boolean(labels[LABEL_COMMIT]);
}

/** True for one of bugbench's bases itself, not an image made from one (which inherits its labels): the base its labels name has its id. */
export async function isBugbenchBase(engine: ContainerEngine, info: ImageInfo): Promise<boolean> {
  if (!info.labels[LABEL_BASE]) return false;
  const tag = languageById(info.labels[LABEL_TOOLCHAIN] ?? '')?.base?.tag ?? BASE_IMAGE;
  return (await engine.inspectImage(tag))?.id === info.id;
}

/**
 * The world of `image` on `engine`: an image bugbench built runs as it is; an
 * adopted one from its snapshot, in the world found when it was adopted.
 * ImageNotFoundError or ImageNotAdoptedError otherwise.
 */
export async function imageRun(engine: ContainerEngine, image: string): Promise<ImageRun> {
  const info = await engine.inspectImage(image);
  if (!info) {
    // The snapshot itself, or an adopted image whose name is not on this engine (a copied snapshot is).
    const byName = readAdoptedImages().find((r) => r.image === image || r.runImage === image);
    if (byName && (await engine.inspectImage(byName.runImage))) return { runImage: byName.runImage, world: byName.world, adopted: byName };
    throw new ImageNotFoundError(image);
  }
  // An adoption comes first: an image made FROM one bugbench built carries its labels, and is adopted when its
  // repository or user moved.
  const adopted = readAdoptedImages().find((r) => r.imageId === info.id || r.runImage === image);
  if (adopted) return { runImage: adopted.runImage, world: adopted.world, adopted };
  if (builtByBugbench(info.labels)) return { runImage: image, world: BUILT_WORLD };
  // One of bugbench's bases (the parser's container where an image has no python3) runs as built; an image made
  // FROM one carries its labels but is not one.
  if (await isBugbenchBase(engine, info)) return { runImage: image, world: BUILT_WORLD };
  throw new ImageNotAdoptedError(image);
}
