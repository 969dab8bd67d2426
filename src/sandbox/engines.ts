/**
 * The engines a run places work on, and what `doctor` and the Images screen
 * show of each (see engine-config.ts for where they are configured). Docker
 * and Podman engines are opened the same way; their kind is kept here.
 */
import type Docker from 'dockerode';
import { EngineUnreachableError, errorMessage } from '../errors.js';
import { DESCRIBE_TIMEOUT_MS, dockerClient, withTimeout } from './docker.js';
import { engineSpecs, type EngineSpec } from './engine-config.js';
import { describeKind, engineKind, kindFromAnswers, rememberKind, type EngineKind } from './engine-kind.js';
import { canonicalImageName } from './image-names.js';
import { LABEL_COMMIT, LABEL_REPO } from './labels.js';
import { labelBelongsTo, reapWork } from './orphans.js';
import { LABEL_OWNER_PID, LABEL_OWNER_START, LABEL_RUN, ownerLabels } from './owner.js';

export { engineSpecs, type EngineSpec } from './engine-config.js';

/** An engine that answered: what a run places work on (see pipeline/placement.ts for what the pool asks of it). */
export interface RunEngine {
  name: string;
  host: string;
  slots: number;
  version: string;
  cpus: number;
  kind: EngineKind;
  docker: Docker;
  /** Resolves once the engine answers a ping within `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  /** A container of this process, of one of `works`, that the engine stopped (containers bugbench makes never stop by themselves). */
  stoppedWork(works: readonly string[], timeoutMs: number): Promise<string | undefined>;
  /** Removes the containers and volumes of `works`; how many containers went. */
  reap(works: readonly string[]): Promise<number>;
}

/** A RunEngine on a dockerode client whose kind is known. */
export function runEngine(spec: EngineSpec, docker: Docker, kind: EngineKind): RunEngine {
  return {
    name: spec.name,
    host: spec.host,
    slots: spec.slots ?? kind.cpus,
    version: kind.version,
    cpus: kind.cpus,
    kind,
    docker,
    ping: async (timeoutMs) => {
      await withTimeout(docker.ping(), timeoutMs, 'timed out');
    },
    stoppedWork: async (works, timeoutMs) => {
      const me = ownerLabels();
      // Filtered here, not by the engine: Podman refuses the status "dead" in a filter.
      const mine = await withTimeout(
        docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER_PID}=${me[LABEL_OWNER_PID]}`, `${LABEL_OWNER_START}=${me[LABEL_OWNER_START]}`] } }),
        timeoutMs,
        'timed out',
      );
      const hit = mine.find((c) => (c.State === 'exited' || c.State === 'dead') && labelBelongsTo(c.Labels?.[LABEL_RUN] ?? '', works));
      return hit ? `container ${hit.Id.slice(0, 12)} of ${hit.Labels?.[LABEL_RUN]}` : undefined;
    },
    reap: async (works) => (await reapWork(docker, works)).removed.length,
  };
}

/**
 * Asks an engine who it is; throws EngineUnreachableError when it does not
 * answer a ping within `timeoutMs`, or its version and info within
 * DESCRIBE_TIMEOUT_MS after that.
 */
export async function openEngine(spec: EngineSpec, timeoutMs = 3000): Promise<RunEngine> {
  const docker = dockerClient(spec.host);
  try {
    await withTimeout(docker.ping(), timeoutMs, 'timed out');
    const [version, info] = await withTimeout(Promise.all([docker.version(), docker.info()]), DESCRIBE_TIMEOUT_MS, `answers a ping but not /version and /info within ${DESCRIBE_TIMEOUT_MS / 1000} s`);
    const kind = kindFromAnswers(version, info as object);
    rememberKind(docker, kind);
    return runEngine(spec, docker, kind);
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
export async function repoImagesOn(docker: Docker): Promise<RepoImageOnEngine[]> {
  const images = await docker.listImages({ filters: { label: [LABEL_REPO] } });
  const byTag = new Map<string, RepoImageOnEngine>();
  for (const image of images) {
    for (const raw of image.RepoTags ?? []) {
      if (raw === '<none>:<none>') continue;
      const tag = canonicalImageName(raw);
      byTag.set(tag, { tag, id: image.Id, repo: image.Labels?.[LABEL_REPO] ?? '', commit: image.Labels?.[LABEL_COMMIT] ?? '', sizeBytes: image.Size });
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
        const images = await repoImagesOn(engine.docker);
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

export { engineKind, describeKind, type EngineKind };
