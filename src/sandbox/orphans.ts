/**
 * Containers left behind by a bugbench process that died (SIGKILL, crash, power
 * loss) are removed at the next start: each container names its owner in labels.
 */
import type Docker from 'dockerode';
import { dockerClient } from './docker.js';
import { LABEL_RUN, ownerAlive } from './owner.js';

export interface ReapResult {
  removed: string[];
}

export async function reapOrphans(docker: Docker = dockerClient()): Promise<ReapResult> {
  const containers = await docker.listContainers({ all: true, filters: { label: [LABEL_RUN] } });
  const orphans = containers.filter((c) => !ownerAlive(c.Labels ?? {}));
  await Promise.all(
    orphans.map((c) =>
      docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined),
    ),
  );
  return { removed: orphans.map((c) => c.Id) };
}
