/**
 * A run over a corpus of images: its rollouts are dealt round-robin over the
 * images, starting at an image the seed picks, so a seed gives the same
 * assignment every time (and a resumed rollout or a cluster task's share runs
 * on the image it was given). A run of one image is a corpus of one.
 */
import { UsageError } from '../errors.js';

/** What names a run's images: the first (`image`), and the whole corpus when there are several. */
export interface CorpusSettings {
  image: string;
  /** Every image of the run, in order, when it has more than one (absent on a run of one image and on runs recorded before corpora). */
  images?: string[];
}

/** Every image of a run, in order. */
export function corpusOf(settings: CorpusSettings): string[] {
  return settings.images && settings.images.length > 0 ? settings.images : [settings.image];
}

/** The image rollout `index` runs on: (offset(seed) + index) mod k, with offset(seed) = seed mod k. */
export function imageOfRollout(settings: CorpusSettings & { seed: number }, index: number): string {
  const images = corpusOf(settings);
  const k = images.length;
  const offset = ((settings.seed % k) + k) % k;
  return images[(offset + index) % k]!;
}

/** The images the given rollouts run on, each once, in the corpus's order. */
export function imagesOfRollouts(settings: CorpusSettings & { seed: number }, indices: readonly number[]): string[] {
  const used = new Set(indices.map((i) => imageOfRollout(settings, i)));
  return corpusOf(settings).filter((image) => used.has(image));
}

/** The images of an images file: one a line; blank lines and `#` comments are left out. */
export function parseImageList(text: string, file: string): string[] {
  const images = text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
  if (images.length === 0) throw new UsageError(`inject: ${file} names no image; write one image a line`);
  return images;
}

/** A run's images as given (repeated --image first, then the file's), each named once. */
export function corpusFrom(flags: readonly string[], listed: readonly string[]): string[] {
  const images = [...flags, ...listed];
  const twice = images.find((image, i) => images.indexOf(image) !== i);
  if (twice) throw new UsageError(`inject: image ${twice} is named twice; name each image of the run once`);
  return images;
}

/** How a run's images read in a table: the image, or "3 images" for a corpus. */
export function imagesLabel(run: CorpusSettings): string {
  const images = corpusOf(run);
  return images.length > 1 ? `${images.length} images` : run.image;
}
