/**
 * An image's file system as one tar stream (`docker export` of a container
 * made from it and never started): what `images pack` turns into a file that
 * needs no engine (bwrap/pack.ts).
 */
import { ImageNotFoundError } from '../../errors.js';
import { asEngineError, isNotFound } from '../engine-errors.js';
import type { ContainerEngine } from '../port.js';
import { dockerOf } from './engine.js';

export interface ImageExport {
  /** The image's files as a tar stream. */
  stream: NodeJS.ReadableStream;
  /** Removes the container the export was read from. */
  done(): Promise<void>;
}

export async function exportImageFiles(engine: ContainerEngine, image: string): Promise<ImageExport> {
  const docker = dockerOf(engine);
  let container;
  try {
    container = await docker.createContainer({ Image: image, Cmd: ['true'], Entrypoint: [], Labels: { 'bugbench.pack': image } });
  } catch (error) {
    if (isNotFound(error)) throw new ImageNotFoundError(image);
    throw asEngineError(error, 'create');
  }
  const made = container;
  const done = () => made.remove({ force: true }).then(() => undefined, () => undefined);
  try {
    return { stream: await made.export(), done };
  } catch (error) {
    await done();
    throw asEngineError(error, 'files');
  }
}
