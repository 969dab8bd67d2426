/**
 * Containers and volumes left behind by a bugbench process that died (SIGKILL,
 * crash, power loss) are removed at the next start: each names its owner in labels.
 */
import { engineSpecs } from './engine-config.js';
import { engineAt } from './engine-table.js';
import type { ReapResult } from './port.js';

export type { ReapResult } from './port.js';

/** Orphans on every configured engine; an engine that does not answer is left for the next start. */
export async function reapOrphansEverywhere(): Promise<ReapResult & { unreachable: string[] }> {
  const total: ReapResult & { unreachable: string[] } = { removed: [], volumes: [], unreachable: [] };
  await Promise.all(
    engineSpecs().map(async (spec) => {
      const engine = engineAt(spec.host);
      try {
        await engine.ping(3000);
      } catch {
        total.unreachable.push(spec.name);
        return;
      }
      const result = await engine.reapOrphans();
      total.removed.push(...result.removed);
      total.volumes.push(...result.volumes);
    }),
  );
  return total;
}
