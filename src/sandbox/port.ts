/**
 * The engine port: everything bugbench asks of a container engine, whatever
 * kind answers. Above src/sandbox/ code holds a ContainerEngine and a Sandbox
 * and never asks which implementation it has; an implementation lives in a
 * folder of its own (docker-api/ speaks the Docker API, which Docker and
 * Podman both serve) and is chosen by the table in engine-table.ts.
 */
import type { EngineKind } from './engine-kind.js';
import type { Sandbox, SandboxOptions } from './sandbox.js';

/** The implementations the engine table knows. */
export type EngineType = 'docker-api' | 'bwrap';

export interface EngineInfo {
  host: string;
  version: string;
  apiVersion: string;
}

/** What an image's configuration says: the facts bugbench reads before it runs anything in it. */
export interface ImageInfo {
  /** The image id (sha256:…): equal ids are the same image on two engines. */
  id: string;
  labels: Record<string, string>;
  /** The image's WorkingDir ('' when unset). */
  workdir: string;
  /** The image's User ('' when unset: root). */
  user: string;
  /** The image's ENV, as NAME=value. */
  env: string[];
  sizeBytes: number;
}

/** One image in an engine's list. */
export interface ImageSummary {
  id: string;
  /** Its tags as the engine lists them (`<none>:<none>` left out). */
  tags: string[];
  labels: Record<string, string>;
  /** Seconds since the epoch. */
  created: number;
  sizeBytes: number;
}

export interface ReapResult {
  removed: string[];
  volumes: string[];
}

export interface ContainerEngine {
  readonly type: EngineType;
  /** The engine's address (unix:///…, tcp://…). */
  readonly host: string;
  /** Resolves once the engine answers a ping within `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  /** Its version; EngineUnreachableError when it does not answer a ping within `timeoutMs`. */
  info(timeoutMs?: number): Promise<EngineInfo>;
  /** What it is (product, rootless, runtime, CPUs), asked once and remembered. */
  kind(): Promise<EngineKind>;
  /** Asks it again what it is: a ping within `pingMs`, its answers within `timeoutMs`; remembered for kind(). */
  describe(pingMs: number, timeoutMs: number): Promise<EngineKind>;
  /** Creates and starts a sandbox; ImageNotFoundError for a missing image, EngineError when the engine failed. */
  createSandbox(options: SandboxOptions): Promise<Sandbox>;
  /**
   * A named volume that sandboxes can share (mounted through SandboxOptions.volumes), labelled as bugbench's.
   * With `memoryBytes`, an engine that can keeps it in memory, up to that size (tmpfs): its removal is then an
   * unmount rather than a walk over its files.
   */
  createVolume(name: string, labels: Record<string, string>, options?: { memoryBytes?: number }): Promise<string>;
  /** Removes a volume; nothing when it is gone already. */
  removeVolume(name: string): Promise<void>;
  /** The image's configuration, or undefined when the engine has no such image. */
  inspectImage(ref: string): Promise<ImageInfo | undefined>;
  /** Saves a sandbox's file system, as it is now, as the image `ref` (whose config is the sandbox's image's). */
  snapshot(sandbox: Sandbox, ref: string): Promise<void>;
  /** Gives the image `source` (a name or an id) the name `target` too. */
  tagImage(source: string, target: string): Promise<void>;
  /** Tagged and untagged images that carry `label`. */
  listImages(label: string): Promise<ImageSummary[]>;
  /** A container of this process, of one of `works`, that the engine stopped (containers bugbench makes never stop by themselves). */
  stoppedWork(works: readonly string[], timeoutMs: number): Promise<string | undefined>;
  /** Removes the containers and volumes of `works` (ids, and ids made from them). */
  reapWork(works: readonly string[]): Promise<ReapResult>;
  /** Removes the containers and volumes whose owning bugbench process is gone. */
  reapOrphans(): Promise<ReapResult>;
}
