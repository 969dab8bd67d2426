/**
 * The engine table: which implementation of the engine port serves an engine
 * of each type. A new kind of engine is one folder beside docker-api/ and one
 * line here. Engines are made once per address and kept.
 */
import { imageRun } from './adopted-images.js';
import { BwrapEngine } from './bwrap/engine.js';
import { DockerApiEngine } from './docker-api/engine.js';
import { engineSpecs } from './engine-config.js';
import type { ContainerEngine, EngineType } from './port.js';
import type { Sandbox, SandboxOptions } from './sandbox.js';

const factories: Record<EngineType, (host: string) => ContainerEngine> = {
  'docker-api': (host) => new DockerApiEngine(host),
  bwrap: (host) => new BwrapEngine(host),
};

const made = new Map<string, ContainerEngine>();

/** The type of engine an address names: `bwrap:///DIR` a folder of packed images, any other the Docker API (Docker and Podman serve it). */
export function engineTypeOf(host: string): EngineType {
  return host.startsWith('bwrap:') ? 'bwrap' : 'docker-api';
}

/** The engine at `host`, of `type` (default: the one its address names). */
export function engineAt(host: string, type: EngineType = engineTypeOf(host)): ContainerEngine {
  const key = `${type} ${host}`;
  let engine = made.get(key);
  if (!engine) {
    engine = factories[type](host);
    made.set(key, engine);
  }
  return engine;
}

/** The default engine: the first one configured (see engine-config.ts). */
export function defaultContainerEngine(): ContainerEngine {
  return engineAt(engineSpecs()[0]!.host);
}

/**
 * Creates and starts a sandbox of `image` on `engine` (default: the default
 * engine), in the image's own world: an image bugbench built as it is, an
 * adopted one from its snapshot, at its root, as its user (adopted-images.ts).
 */
export async function openSandbox(options: SandboxOptions & { engine?: ContainerEngine }): Promise<Sandbox> {
  const { engine: given, ...rest } = options;
  const engine = given ?? defaultContainerEngine();
  const { runImage, world } = await imageRun(engine, rest.image);
  return engine.createSandbox({ ...rest, image: runImage, world: rest.world ?? world });
}
