/**
 * The engine table: which implementation of the engine port serves an engine
 * of each type. A new kind of engine is one folder beside docker-api/ and one
 * line here. Engines are made once per address and kept.
 */
import { imageRun } from './adopted-images.js';
import { DockerApiEngine } from './docker-api/engine.js';
import { engineSpecs } from './engine-config.js';
import type { ContainerEngine, EngineType } from './port.js';
import type { Sandbox, SandboxOptions } from './sandbox.js';

const factories: Record<EngineType, (host: string) => ContainerEngine> = {
  'docker-api': (host) => new DockerApiEngine(host),
};

const made = new Map<string, ContainerEngine>();

/** The engine at `host`, of `type` (default: the Docker API, which Docker and Podman serve). */
export function engineAt(host: string, type: EngineType = 'docker-api'): ContainerEngine {
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
