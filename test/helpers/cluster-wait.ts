/**
 * Waits on a Slurm array's progress as states, not as all tasks at once: the
 * local cluster has 2 CPUs and another test file's job may hold one, so an
 * array's second task can stay pending until the first has ended.
 */
import { expect, vi } from 'vitest';
import { isTerminal } from '../../src/cluster/jobs.js';
import { clusterOf, clusterTaskStates } from '../../src/pipeline/cluster-run.js';
import { Store } from '../../src/store/store.js';
import { STATE_LIMIT_MS } from './tmux.js';

/** Until a rollout of the run in `home` runs on `task` while no task of its array has ended (the others run or wait for a core). */
export async function arrayUnderWay(home: string, task = 0): Promise<void> {
  await vi.waitFor(
    async () => {
      const store = Store.open({ root: home });
      const run = store.all('runs')[0]!;
      expect(store.all('rollouts').some((r) => r.status === 'running' && r.task === task)).toBe(true);
      const states = await clusterTaskStates(clusterOf(run)!);
      expect(states.filter((s) => isTerminal(s.state) || s.state === 'unknown')).toEqual([]);
    },
    { timeout: STATE_LIMIT_MS, interval: 250 },
  );
}
