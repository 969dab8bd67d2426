/**
 * Putting an image on every engine a run will use: where it is missing (or the
 * tag names another image), the engine that has it exports it and the export
 * is streamed straight into the other engine's import — no file in between, no
 * registry. Progress comes as typed events (bytes moved of the image's size).
 * Works between Docker and Podman both ways; the copy keeps the image id and
 * answers to the name asked for (see image-names.ts).
 */
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { ContainerEngine } from '../port.js';
import { dockerOf } from './engine.js';
import { ImageNotFoundError, SandboxError, errorMessage } from '../../errors.js';
import { isNotFound } from '../engine-errors.js';
import { followProgress } from './image-progress.js';
import { sameImageName, splitImageName } from '../image-names.js';

export interface EngineRef {
  name: string;
  engine: ContainerEngine;
}

export type ImageCopyEvent =
  | { type: 'image-present'; image: string; engine: string }
  | { type: 'image-copy-started'; image: string; from: string; to: string; totalBytes: number }
  | { type: 'image-copy-progress'; image: string; from: string; to: string; bytes: number; totalBytes: number }
  | { type: 'image-copy-finished'; image: string; from: string; to: string; bytes: number; durationMs: number };

const PROGRESS_EVERY_BYTES = 16 * 1024 * 1024;

async function imageId(docker: Docker, image: string): Promise<{ id: string; size: number; tags: string[] } | undefined> {
  try {
    const info = await docker.getImage(image).inspect();
    return { id: info.Id, size: info.Size, tags: info.RepoTags ?? [] };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * Makes `image` present, as the same image id, on every engine. The source is
 * the first engine (in the order given) that has it; throws ImageNotFoundError
 * when none has it. Returns the engines it was copied to.
 */
export async function ensureImageOnEngines(image: string, engines: EngineRef[], onEvent: (event: ImageCopyEvent) => void = () => undefined): Promise<string[]> {
  const held = await Promise.all(engines.map((e) => imageId(dockerOf(e.engine), image)));
  const sourceIndex = held.findIndex((h) => h !== undefined);
  if (sourceIndex < 0) throw new ImageNotFoundError(image);
  const source = engines[sourceIndex]!;
  const wanted = held[sourceIndex]!;
  const copied: string[] = [];
  for (const [i, engine] of engines.entries()) {
    if (held[i]?.id === wanted.id) {
      onEvent({ type: 'image-present', image, engine: engine.name });
      continue;
    }
    await copyImage(image, source, engine, wanted.size, onEvent);
    await nameAsAsked(dockerOf(engine.engine), image, wanted.id);
    const now = await imageId(dockerOf(engine.engine), image);
    if (now?.id !== wanted.id) {
      throw new SandboxError(`copying ${image} from engine ${source.name} to ${engine.name} gave image ${now?.id ?? 'none'} instead of ${wanted.id}`);
    }
    copied.push(engine.name);
  }
  return copied;
}

/**
 * After a load, the image answers to `image` on the target: an archive from
 * Podman names it `localhost/…`, which Docker keeps as a name of its own, so
 * the name asked for is tagged and the stray one dropped (Podman finds the
 * short name itself).
 */
async function nameAsAsked(docker: Docker, image: string, id: string): Promise<void> {
  const loaded = await imageId(docker, id);
  if (!loaded || loaded.tags.includes(image) || (await imageId(docker, image))?.id === id) return;
  const [repo, tag] = splitImageName(image);
  await docker.getImage(id).tag({ repo, tag });
  for (const stray of loaded.tags.filter((t) => t !== image && sameImageName(t, image))) {
    await docker.getImage(stray).remove({ noprune: true }).catch(() => undefined);
  }
}

/** Streams `docker save` of one engine into `docker load` of another. */
export async function copyImage(image: string, from: EngineRef, to: EngineRef, totalBytes: number, onEvent: (event: ImageCopyEvent) => void): Promise<void> {
  const started = performance.now();
  const ends = { image, from: from.name, to: to.name };
  onEvent({ type: 'image-copy-started', ...ends, totalBytes });
  let bytes = 0;
  let reported = 0;
  try {
    const exported = (await dockerOf(from.engine).getImage(image).get()) as NodeJS.ReadableStream;
    const counted = new PassThrough();
    counted.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes - reported >= PROGRESS_EVERY_BYTES) {
        reported = bytes;
        onEvent({ type: 'image-copy-progress', ...ends, bytes, totalBytes });
      }
    });
    exported.on('error', (error: Error) => counted.destroy(error));
    exported.pipe(counted);
    const answer = await dockerOf(to.engine).loadImage(counted, { quiet: true });
    await followProgress(dockerOf(to.engine), answer, () => undefined);
  } catch (error) {
    throw new SandboxError(`could not copy image ${image} from engine ${from.name} to engine ${to.name} after ${bytes} bytes: ${errorMessage(error)}`);
  }
  onEvent({ type: 'image-copy-finished', ...ends, bytes, durationMs: Math.round(performance.now() - started) });
}

/** One line for a person, for the CLI. */
export function describeImageCopy(event: ImageCopyEvent): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  switch (event.type) {
    case 'image-present':
      return `image ${event.image} is on engine ${event.engine}`;
    case 'image-copy-started':
      return `copying image ${event.image} from engine ${event.from} to ${event.to} (${mb(event.totalBytes)})`;
    case 'image-copy-progress':
      return `copying image ${event.image} to ${event.to}: ${mb(event.bytes)} of about ${mb(event.totalBytes)}`;
    case 'image-copy-finished':
      return `copied image ${event.image} to engine ${event.to}: ${mb(event.bytes)} in ${(event.durationMs / 1000).toFixed(1)} s`;
  }
}
