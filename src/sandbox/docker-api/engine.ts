/**
 * The engine port over the Docker API, which Docker and Podman both serve:
 * one dockerode client per address, its kind asked once. Everything in this
 * folder may reach the client through `dockerOf`; nothing outside it can.
 */
import type Docker from 'dockerode';
import { EngineUnreachableError, errorMessage, SandboxError } from '../../errors.js';
import { engineCall, unreachableEngine, withTimeout } from '../engine-errors.js';
import { kindFromAnswers, type EngineKind, type InfoAnswer, type VersionAnswer } from '../engine-kind.js';
import { labelBelongsTo, LABEL_OWNER_PID, LABEL_OWNER_START, LABEL_RUN, ownerAlive, ownerLabels } from '../owner.js';
import type { ContainerEngine, EngineInfo, ImageInfo, ImageSummary, ReapResult } from '../port.js';
import type { Sandbox, SandboxOptions } from '../sandbox.js';
import { splitTag } from '../image-names.js';
import { dockerClient, DESCRIBE_TIMEOUT_MS } from './client.js';
import { DockerSandbox } from './sandbox.js';

export class DockerApiEngine implements ContainerEngine {
  readonly type = 'docker-api' as const;
  private known?: Promise<EngineKind>;

  constructor(
    readonly host: string,
    readonly client: Docker = dockerClient(host),
  ) {}

  async ping(timeoutMs: number): Promise<void> {
    await withTimeout(this.client.ping(), timeoutMs, 'timed out');
  }

  async info(timeoutMs = 3000): Promise<EngineInfo> {
    try {
      await this.ping(timeoutMs);
      const version = await withTimeout(this.client.version(), DESCRIBE_TIMEOUT_MS, `answers a ping but not /version within ${DESCRIBE_TIMEOUT_MS / 1000} s`);
      return { host: this.host, version: version.Version, apiVersion: version.ApiVersion };
    } catch (error) {
      throw new EngineUnreachableError(this.host, errorMessage(error));
    }
  }

  /** Asks the engine once what it is (a failed question is asked again next time). */
  kind(): Promise<EngineKind> {
    if (!this.known) {
      const asked = engineCall('info', async () => {
        const [version, info] = await Promise.all([this.client.version(), this.client.info()]);
        return kindFromAnswers(version as VersionAnswer, info as InfoAnswer);
      });
      asked.catch(() => {
        if (this.known === asked) this.known = undefined;
      });
      this.known = asked;
    }
    return this.known;
  }

  /** Asks for /version and /info within `timeoutMs` after a ping within `pingMs`, and remembers the kind. */
  async describe(pingMs: number, timeoutMs: number): Promise<EngineKind> {
    await this.ping(pingMs);
    const [version, info] = await withTimeout(Promise.all([this.client.version(), this.client.info()]), timeoutMs, `answers a ping but not /version and /info within ${timeoutMs / 1000} s`);
    const kind = kindFromAnswers(version as VersionAnswer, info as InfoAnswer);
    this.known = Promise.resolve(kind);
    return kind;
  }

  async createSandbox(options: SandboxOptions): Promise<Sandbox> {
    return DockerSandbox.create(this.client, await this.kind(), options);
  }

  async createVolume(name: string, labels: Record<string, string>, options: { memoryBytes?: number } = {}): Promise<string> {
    // Docker's local driver mounts a tmpfs once, when the first container that uses it starts, and shares it. Podman
    // (4.3) refuses a size for one (it reads it as a disk quota), and one without could fill half the host's memory:
    // its volumes stay on disk.
    const inMemory = options.memoryBytes && (await this.kind()).product === 'docker' ? { DriverOpts: { type: 'tmpfs', device: 'tmpfs', o: `size=${options.memoryBytes}` } } : {};
    const volume = await engineCall('volume', () => this.client.createVolume({ Name: name, Labels: labels, ...inMemory }));
    return volume.name;
  }

  async removeVolume(name: string): Promise<void> {
    await this.client.getVolume(name).remove().catch(() => undefined);
  }

  async inspectImage(ref: string): Promise<ImageInfo | undefined> {
    let info: Docker.ImageInspectInfo;
    try {
      info = await this.client.getImage(ref).inspect();
    } catch (error) {
      if ((error as { statusCode?: number })?.statusCode === 404) return undefined;
      throw error;
    }
    return {
      id: info.Id,
      labels: info.Config?.Labels ?? {},
      workdir: info.Config?.WorkingDir ?? '',
      user: info.Config?.User ?? '',
      env: info.Config?.Env ?? [],
      sizeBytes: info.Size,
    };
  }

  async snapshot(sandbox: Sandbox, ref: string): Promise<void> {
    const [repo, tag] = splitTag(ref);
    await engineCall('create', () => this.client.getContainer(sandbox.id).commit({ repo, tag, pause: true }));
  }

  async tagImage(source: string, target: string): Promise<void> {
    const [repo, tag] = splitTag(target);
    await this.client.getImage(source).tag({ repo, tag });
  }

  async listImages(label: string): Promise<ImageSummary[]> {
    const images = await this.client.listImages({ filters: { label: [label] } });
    return images.map((image) => ({
      id: image.Id,
      tags: (image.RepoTags ?? []).filter((t) => t !== '<none>:<none>'),
      labels: image.Labels ?? {},
      created: image.Created,
      sizeBytes: image.Size,
    }));
  }

  async stoppedWork(works: readonly string[], timeoutMs: number): Promise<string | undefined> {
    const me = ownerLabels();
    // Filtered here, not by the engine: Podman refuses the status "dead" in a filter.
    const mine = await withTimeout(
      this.client.listContainers({ all: true, filters: { label: [`${LABEL_OWNER_PID}=${me[LABEL_OWNER_PID]}`, `${LABEL_OWNER_START}=${me[LABEL_OWNER_START]}`] } }),
      timeoutMs,
      'timed out',
    );
    const hit = mine.find((c) => (c.State === 'exited' || c.State === 'dead') && labelBelongsTo(c.Labels?.[LABEL_RUN] ?? '', works));
    return hit ? `container ${hit.Id.slice(0, 12)} of ${hit.Labels?.[LABEL_RUN]}` : undefined;
  }

  reapWork(works: readonly string[]): Promise<ReapResult> {
    return this.reap((labels) => labelBelongsTo(labels[LABEL_RUN] ?? '', works));
  }

  reapOrphans(): Promise<ReapResult> {
    return this.reap((labels) => !ownerAlive(labels));
  }

  /** Removes bugbench's containers, then volumes (a volume still mounted cannot go), whose labels `chosen` picks. */
  private async reap(chosen: (labels: Record<string, string>) => boolean): Promise<ReapResult> {
    const docker = this.client;
    // The first request of most commands: an engine that is not there is said so here, with what to do.
    const listed = await docker.listContainers({ all: true, filters: { label: [LABEL_RUN] } }).catch((error: unknown) => {
      throw unreachableEngine(error, this.host) ?? error;
    });
    const containers = listed.filter((c) => chosen(c.Labels ?? {}));
    await Promise.all(containers.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)));
    const { Volumes: volumes } = await docker.listVolumes({ filters: { label: [LABEL_RUN] } });
    const gone = (volumes ?? []).filter((v) => chosen(v.Labels ?? {}));
    await Promise.all(gone.map((v) => docker.getVolume(v.Name).remove().catch(() => undefined)));
    return { removed: containers.map((c) => c.Id), volumes: gone.map((v) => v.Name) };
  }
}

/** The dockerode client of an engine of this folder's kind (building images needs the Docker API itself). */
export function dockerOf(engine: ContainerEngine): Docker {
  if (engine instanceof DockerApiEngine) return engine.client;
  throw new SandboxError(`${engine.host} is a ${engine.type} engine; building and copying images needs an engine that speaks the Docker API (Docker or Podman)`);
}
