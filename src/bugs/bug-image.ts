/**
 * The image a bug runs on, one rule for every export and for solving: the
 * image it was checked on (its meta.json records the id). That is its tag
 * while the tag still names that image; after a rebuild of the tag, the tag
 * by id the build left on the old image (`<repo>:id-<12 hex>`, see
 * pipeline/image-build.ts); and when neither holds it, the bug cannot run
 * as it was checked, which is said rather than guessed.
 */
import { BugImageGoneError, errorMessage, ImageNotAdoptedError, ImageNotFoundError } from '../errors.js';
import { imageRun, readAdoptedImages } from '../sandbox/adopted-images.js';
import { splitTag } from '../sandbox/image-names.js';
import type { ContainerEngine } from '../sandbox/port.js';
import { BUILT_WORLD, type ImageWorld } from '../sandbox/sandbox.js';

/** The tag a rebuild leaves on the image it replaced: the same repository, `id-` and the first 12 hex of its id. */
export function keptTag(tag: string, imageId: string): string {
  return `${splitTag(tag)[0]}:id-${imageId.replace(/^sha256:/, '').slice(0, 12)}`;
}

const short = (id: string) => id.replace(/^sha256:/, '').slice(0, 12);

/** Where a bug runs: its tag, or the kept tag of its old image. */
export interface BugImage {
  image: string;
  /** True when its tag now names another image and the kept one is used. */
  kept: boolean;
}

/** The world a bug's image gives the tasks made of it: where the repository is, whose it is, its environment. */
export interface ImageWorldOf {
  world: ImageWorld;
  /** An image bugbench did not build (its repository may hold history past HEAD). */
  adopted: boolean;
}

/** Resolves bugs' images against one engine, asking it about each tag once. */
export class BugImages {
  private readonly ids = new Map<string, Promise<string | undefined>>();
  private readonly worlds = new Map<string, Promise<ImageWorldOf>>();
  /** Why the engine could not be asked (with `lenient`, bugs then keep their tags). */
  unanswered: string | undefined;

  /** `lenient`: an engine that does not answer leaves each bug on its tag (an export of JSONL still has the tags to write). */
  constructor(
    private readonly engine: ContainerEngine,
    private readonly lenient = false,
  ) {}

  private idOf(image: string): Promise<string | undefined> {
    let id = this.ids.get(image);
    if (!id) {
      id = this.engine
        .inspectImage(image)
        .then((info) => info?.id)
        .catch((error: unknown) => {
          if (!this.lenient) throw error;
          this.unanswered ??= errorMessage(error);
          return undefined;
        });
      this.ids.set(image, id);
    }
    return id;
  }

  /** The image `bug` runs on; BugImageGoneError when its tag names another image and none keeps the one it was checked on. */
  async of(bug: { id: string; image: string }, checkedOn: string | null | undefined): Promise<BugImage> {
    if (!checkedOn) return { image: bug.image, kept: false };
    const now = await this.idOf(bug.image);
    if (now === checkedOn || this.unanswered) return { image: bug.image, kept: false };
    const kept = keptTag(bug.image, checkedOn);
    if ((await this.idOf(kept)) === checkedOn) return { image: kept, kept: true };
    const what = now ? `${bug.image} is now image ${short(now)}, not ${short(checkedOn)} the bug was checked on,` : `${bug.image} is not on this engine,`;
    throw new BugImageGoneError(bug.id, `its image ${what} and no ${kept} keeps the old one; check it again on the new image (\`bugbench check ${bug.id}\`) or work where the old image is`);
  }

  /**
   * The world of `image`, the one place every export reads a task's root and
   * user from: an image bugbench built keeps /repo and root; an adopted one
   * what its adoption found; ImageNotFoundError or ImageNotAdoptedError when
   * it is neither. With `lenient`, an engine that does not answer leaves the
   * adoption record of that name, else bugbench's own world.
   */
  worldOf(image: string): Promise<ImageWorldOf> {
    let found = this.worlds.get(image);
    if (!found) {
      found = imageRun(this.engine, image)
        .then((run) => ({ world: run.world, adopted: run.adopted !== undefined }))
        .catch((error: unknown) => {
          if (!this.lenient) throw error;
          // A JSONL row needs no image on this engine: the record of its adoption says where its repository is, else /repo.
          if (!(error instanceof ImageNotFoundError || error instanceof ImageNotAdoptedError)) this.unanswered ??= errorMessage(error);
          const record = readAdoptedImages().find((r) => r.image === image);
          return record ? { world: record.world, adopted: true } : { world: BUILT_WORLD, adopted: false };
        });
      this.worlds.set(image, found);
    }
    return found;
  }
}
