/**
 * The engines a run places work on, and what `doctor` and the Images screen
 * show of each (see engine-config.ts for where they are configured).
 */
import type Docker from 'dockerode';
import { EngineUnreachableError, errorMessage } from '../errors.js';
import { dockerClient, withTimeout } from './docker.js';
import { engineSpecs, type EngineSpec } from './engine-config.js';
import { LABEL_COMMIT, LABEL_REPO } from './labels.js';

export { engineSpecs, type EngineSpec } from './engine-config.js';

/** An engine that answered: what a run places work on. */
export interface RunEngine {
  name: string;
  host: string;
  slots: number;
  version: string;
  cpus: number;
  docker: Docker;
}

/** Asks an engine who it is; throws EngineUnreachableError when it does not answer in time. */
export async function openEngine(spec: EngineSpec, timeoutMs = 3000): Promise<RunEngine> {
  const docker = dockerClient(spec.host);
  try {
    const info = (await withTimeout(docker.info(), timeoutMs, 'timed out')) as { ServerVersion?: string; NCPU?: number };
    const cpus = info.NCPU && info.NCPU > 0 ? info.NCPU : 1;
    return { name: spec.name, host: spec.host, slots: spec.slots ?? cpus, version: info.ServerVersion ?? '?', cpus, docker };
  } catch (error) {
    throw new EngineUnreachableError(`${spec.host} (engine ${spec.name})`, errorMessage(error));
  }
}

export interface RepoImageOnEngine {
  tag: string;
  /** The image id (sha256:…): equal ids are the same image on two engines. */
  id: string;
  repo: string;
  commit: string;
  sizeBytes: number;
}

/** What `doctor` and the Images screen show of one engine. */
export interface EngineStatus {
  name: string;
  host: string;
  ok: boolean;
  version: string | null;
  cpus: number | null;
  /** The slots configured, or (when not configured) the engine's CPUs; null when it does not answer. */
  slots: number | null;
  images: RepoImageOnEngine[];
  detail?: string;
}

/** The repo images (labelled `bugbench.repo`) an engine holds, by tag. */
export async function repoImagesOn(docker: Docker): Promise<RepoImageOnEngine[]> {
  const images = await docker.listImages({ filters: { label: [LABEL_REPO] } });
  return images
    .flatMap((image) =>
      (image.RepoTags ?? [])
        .filter((tag) => tag !== '<none>:<none>')
        .map((tag) => ({ tag, id: image.Id, repo: image.Labels?.[LABEL_REPO] ?? '', commit: image.Labels?.[LABEL_COMMIT] ?? '', sizeBytes: image.Size })),
    )
    .sort((a, b) => a.tag.localeCompare(b.tag));
}

/** Every configured engine: whether it answers, its version, slots and repo images. Never throws for an engine that is down. */
export async function engineStatuses(specs: EngineSpec[] = engineSpecs()): Promise<EngineStatus[]> {
  return Promise.all(
    specs.map(async (spec): Promise<EngineStatus> => {
      try {
        const engine = await openEngine(spec);
        const images = await repoImagesOn(engine.docker);
        return { name: spec.name, host: spec.host, ok: true, version: engine.version, cpus: engine.cpus, slots: engine.slots, images };
      } catch (error) {
        return { name: spec.name, host: spec.host, ok: false, version: null, cpus: null, slots: spec.slots ?? null, images: [], detail: errorMessage(error) };
      }
    }),
  );
}
