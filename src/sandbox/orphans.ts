/**
 * Containers and volumes left behind by a bugbench process that died (SIGKILL,
 * crash, power loss) are removed at the next start: each names its owner in labels.
 */
import type Docker from 'dockerode';
import { dockerClient, withTimeout } from './docker.js';
import { engineSpecs } from './engine-config.js';
import { LABEL_RUN, ownerAlive } from './owner.js';

export interface ReapResult {
  removed: string[];
  volumes: string[];
}

export async function reapOrphans(docker: Docker = dockerClient()): Promise<ReapResult> {
  const containers = await docker.listContainers({ all: true, filters: { label: [LABEL_RUN] } });
  const orphans = containers.filter((c) => !ownerAlive(c.Labels ?? {}));
  await Promise.all(orphans.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)));
  // Volumes after containers: a volume still mounted cannot go.
  const { Volumes: volumes } = await docker.listVolumes({ filters: { label: [LABEL_RUN] } });
  const orphanVolumes = (volumes ?? []).filter((v) => !ownerAlive(v.Labels ?? {}));
  await Promise.all(orphanVolumes.map((v) => docker.getVolume(v.Name).remove().catch(() => undefined)));
  return { removed: orphans.map((c) => c.Id), volumes: orphanVolumes.map((v) => v.Name) };
}

/** True when a `bugbench.run` label belongs to the work `id`: the id itself or one made from it (`<id>-check`, `<id>-feature`, …). */
export function labelBelongsTo(label: string, ids: readonly string[]): boolean {
  return ids.some((id) => label === id || label.startsWith(`${id}-`));
}

/**
 * Removes the containers and volumes of the given work from one engine: what a
 * rollout left on an engine that stopped answering, once the engine is back.
 */
export async function reapWork(docker: Docker, ids: readonly string[]): Promise<ReapResult> {
  const containers = await docker.listContainers({ all: true, filters: { label: [LABEL_RUN] } });
  const mine = containers.filter((c) => labelBelongsTo(c.Labels?.[LABEL_RUN] ?? '', ids));
  await Promise.all(mine.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)));
  const { Volumes: volumes } = await docker.listVolumes({ filters: { label: [LABEL_RUN] } });
  const mineVolumes = (volumes ?? []).filter((v) => labelBelongsTo(v.Labels?.[LABEL_RUN] ?? '', ids));
  await Promise.all(mineVolumes.map((v) => docker.getVolume(v.Name).remove().catch(() => undefined)));
  return { removed: mine.map((c) => c.Id), volumes: mineVolumes.map((v) => v.Name) };
}

/** Orphans on every configured engine; an engine that does not answer is left for the next start. */
export async function reapOrphansEverywhere(): Promise<ReapResult & { unreachable: string[] }> {
  const total: ReapResult & { unreachable: string[] } = { removed: [], volumes: [], unreachable: [] };
  await Promise.all(
    engineSpecs().map(async (spec) => {
      const docker = dockerClient(spec.host);
      try {
        await withTimeout(docker.ping(), 3000, 'timed out');
      } catch {
        total.unreachable.push(spec.name);
        return;
      }
      const result = await reapOrphans(docker);
      total.removed.push(...result.removed);
      total.volumes.push(...result.volumes);
    }),
  );
  return total;
}
