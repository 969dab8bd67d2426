/**
 * Building a repo image where bugs already are: a rebuild of a tag makes a
 * new image (a new id even from the same commit), and the bugs on the tag
 * were checked on the old one. The old image is first tagged by its id
 * (bugs/bug-image.ts keptTag), so it is not left dangling for a prune to take,
 * and the build says so: export and solve then take those bugs on it.
 */
import { keptTag } from '../bugs/bug-image.js';
import { buildRepoImage, defaultTag, inspectRepo, repoNameFrom, type BuildImageOptions, type BuiltImage } from '../sandbox/docker-api/repo-image.js';
import type { ContainerEngine } from '../sandbox/port.js';
import { sameImageName } from '../sandbox/image-names.js';
import type { Store } from '../store/store.js';

export interface BuiltOverBugs extends BuiltImage {
  /** When the tag named an image that bugs were checked on: that image's kept tag and how many bugs are on the tag. */
  kept?: { tag: string; imageId: string; bugs: number };
}

export async function buildImageOverBugs(engine: ContainerEngine, store: Store, options: BuildImageOptions): Promise<BuiltOverBugs> {
  const { root } = await inspectRepo(options.dir);
  const tag = options.tag ?? defaultTag(repoNameFrom(root));
  const bugs = store.all('bugs').filter((b) => sameImageName(b.image, tag)).length;
  const before = bugs > 0 ? (await engine.inspectImage(tag))?.id : undefined;
  let kept: BuiltOverBugs['kept'];
  if (before) {
    const name = keptTag(tag, before);
    await engine.tagImage(before, name);
    kept = { tag: name, imageId: before, bugs };
  }
  const built = await buildRepoImage(engine, { ...options, tag });
  if (!kept || built.id === kept.imageId) return built;
  options.progress(
    `warning: ${bugs} bug(s) on ${tag} were checked on the image this build replaced; it is kept as ${kept.tag}, where export and solve take those bugs (check them again on the new image with \`bugbench check <bug-id>\`)`,
  );
  return { ...built, kept };
}
