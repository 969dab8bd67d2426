/**
 * The rootless Podman engine of the tests: a service of its own user
 * (`bbpodman`, not in the docker group), started by scripts/podman-up from the
 * test set-up, holding copies of the images the tests need. The `podman`
 * project of vitest.config.ts runs its files with DOCKER_HOST at it.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { BASE_IMAGE } from '../../src/sandbox/docker-api/base-image.js';
import { DEFAULT_ENGINE_HOST } from '../../src/sandbox/engine-config.js';
import { ensureImageOnEngines } from '../../src/sandbox/docker-api/image-copy.js';
import { engineAt } from '../../src/sandbox/engine-table.js';

export const PODMAN_USER = process.env.BUGBENCH_PODMAN_USER || 'bbpodman';
export const PODMAN_IMAGES = [BASE_IMAGE, 'bugbench/repo-knotcfg:latest'];

declare module 'vitest' {
  export interface ProvidedContext {
    podmanHost: string;
  }
}

/** Starts (or finds up) the user's rootless Podman service and returns its address. */
export async function startPodman(): Promise<string> {
  const up = await execa(join(PACKAGE_ROOT, 'scripts', 'podman-up'), ['--user', PODMAN_USER], { reject: false });
  if (up.exitCode !== 0) throw new Error(`scripts/podman-up --user ${PODMAN_USER} failed:\n${up.stderr}`);
  return up.stdout.trim();
}

/** Copies the images the Podman tests use from the Docker engine (once; a few inspections after). */
export async function copyTestImages(host: string, log: (line: string) => void): Promise<void> {
  const engines = [
    { name: 'docker', engine: engineAt(DEFAULT_ENGINE_HOST) },
    { name: 'podman', engine: engineAt(host) },
  ];
  for (const image of PODMAN_IMAGES) {
    await ensureImageOnEngines(image, engines, (event) => {
      if (event.type === 'image-copy-finished') log(`copied ${image} to rootless Podman in ${(event.durationMs / 1000).toFixed(1)} s`);
    });
  }
}
