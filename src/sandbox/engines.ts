/**
 * The engines a run places work on, and what `doctor` and the Images screen
 * show of each (see engine-config.ts for where they are configured). Docker
 * and Podman engines are opened the same way; their kind is kept here.
 */
import { EngineUnreachableError, errorMessage } from '../errors.js';
import { DESCRIBE_TIMEOUT_MS } from './docker-api/client.js';
import { engineSpecs, type EngineSpec } from './engine-config.js';
import { describeKind, type EngineKind } from './engine-kind.js';
import { engineAt } from './engine-table.js';
import { canonicalImageName } from './image-names.js';
import { LABEL_COMMIT, LABEL_REPO } from './labels.js';
import type { ContainerEngine } from './port.js';

export { engineSpecs, type EngineSpec } from './engine-config.js';

/** An engine that answered: what a run places work on (see pipeline/placement.ts for what the pool asks of it). */
export interface RunEngine {
  name: string;
  host: string;
  slots: number;
  version: string;
  cpus: number;
  kind: EngineKind;
  /** The engine port this engine is reached through. */
  port: ContainerEngine;
  /** Resolves once the engine answers a ping within `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  /** A container of this process, of one of `works`, that the engine stopped (containers bugbench makes never stop by themselves). */
  stoppedWork(works: readonly string[], timeoutMs: number): Promise<string | undefined>;
  /** Removes the containers and volumes of `works`; how many containers went. */
  reap(works: readonly string[]): Promise<number>;
}

/** A RunEngine on an engine whose kind is known. */
export function runEngine(spec: EngineSpec, engine: ContainerEngine, kind: EngineKind): RunEngine {
  return {
    name: spec.name,
    host: spec.host,
    slots: spec.slots ?? kind.cpus,
    version: kind.version,
    cpus: kind.cpus,
    kind,
    port: engine,
    ping: (timeoutMs) => engine.ping(timeoutMs),
    stoppedWork: (works, timeoutMs) => engine.stoppedWork(works, timeoutMs),
    reap: async (works) => (await engine.reapWork(works)).removed.length,
  };
}

/**
 * Asks an engine who it is; throws EngineUnreachableError when it does not
 * answer a ping within `timeoutMs`, or its version and info within
 * DESCRIBE_TIMEOUT_MS after that.
 */
export async function openEngine(spec: EngineSpec, timeoutMs = 3000): Promise<RunEngine> {
  const engine = engineAt(spec.host);
  try {
    const kind = await engine.describe(timeoutMs, DESCRIBE_TIMEOUT_MS);
    return runEngine(spec, engine, kind);
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
  /** docker or podman; null when it does not answer. */
  product: EngineKind['product'] | null;
  rootless: boolean | null;
  /** The OCI runtime the engine runs containers with (runc, crun, …). */
  runtime: string | null;
  /** e.g. "rootless Podman 4.3.1 (runc)". */
  kind: string | null;
  cpus: number | null;
  /** The slots configured, or (when not configured) the engine's CPUs; null when it does not answer. */
  slots: number | null;
  images: RepoImageOnEngine[];
  detail?: string;
}

/** The repo images (labelled `bugbench.repo`) an engine holds, by tag (Podman's `localhost/` left out). */
export async function repoImagesOn(engine: ContainerEngine): Promise<RepoImageOnEngine[]> {
  const images = await engine.listImages(LABEL_REPO);
  const byTag = new Map<string, RepoImageOnEngine>();
  for (const image of images) {
    for (const raw of image.tags) {
      const tag = canonicalImageName(raw);
      byTag.set(tag, { tag, id: image.id, repo: image.labels[LABEL_REPO] ?? '', commit: image.labels[LABEL_COMMIT] ?? '', sizeBytes: image.sizeBytes });
    }
  }
  return [...byTag.values()].sort((a, b) => a.tag.localeCompare(b.tag));
}

/** Every configured engine: whether it answers, its kind, slots and repo images. Never throws for an engine that is down. */
export async function engineStatuses(specs: EngineSpec[] = engineSpecs()): Promise<EngineStatus[]> {
  return Promise.all(
    specs.map(async (spec): Promise<EngineStatus> => {
      try {
        const engine = await openEngine(spec);
        const images = await repoImagesOn(engine.port);
        const { kind } = engine;
        return {
          name: spec.name,
          host: spec.host,
          ok: true,
          version: engine.version,
          product: kind.product,
          rootless: kind.rootless,
          runtime: kind.runtime || null,
          kind: describeKind(kind),
          cpus: engine.cpus,
          slots: engine.slots,
          images,
        };
      } catch (error) {
        return { name: spec.name, host: spec.host, ok: false, version: null, product: null, rootless: null, runtime: null, kind: null, cpus: null, slots: spec.slots ?? null, images: [], detail: errorMessage(error) };
      }
    }),
  );
}

export { describeKind, type EngineKind };
