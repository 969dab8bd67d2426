/**
 * Containers and volumes left behind by a bugbench process that died (SIGKILL,
 * crash, power loss) are removed at the next start: each names its owner in labels.
 */
import type Docker from 'dockerode';
import { dockerClient } from './docker.js';
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
