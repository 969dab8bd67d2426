/**
 * Adopting an image someone names (`bugbench images add`, the Images screen's
 * `a`): the adoption of sandbox/adopt.ts, with an image the engine does not
 * have told to be pulled first — an image to adopt is someone else's, so
 * building one (the generic hint) is not the way to it.
 */
import { ImageNotFoundError } from '../errors.js';
import { adoptImage, type AdoptOptions } from '../sandbox/adopt.js';
import type { AdoptedImage } from '../sandbox/adopted-images.js';
import type { ContainerEngine } from '../sandbox/port.js';

export async function adoptByName(engine: ContainerEngine, image: string, options: AdoptOptions = {}): Promise<AdoptedImage> {
  try {
    return await adoptImage(engine, image, options);
  } catch (error) {
    throw error instanceof ImageNotFoundError && error.image === image ? ImageNotFoundError.toAdopt(image) : error;
  }
}
