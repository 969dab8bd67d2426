/**
 * A cluster run on the Rollouts screen: `inject --cluster slurm --tasks 2`
 * runs in another process (its tasks on the local Slurm); the workbench on
 * the same workspace follows its rollouts from the store and trajectories,
 * says which task and node each runs on, and `c` cancels the whole array.
 */
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { clusterOf, clusterTaskStates } from '../../src/pipeline/cluster-run.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { workbenchCore } from '../../src/pipeline/workbench-core.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { BIN } from '../helpers/cli.js';
import { fits, renderIn } from '../helpers/terminal.js';
import { STATE_LIMIT_MS } from '../helpers/tmux.js';
import { LOCAL_SLURM_DIR } from '../helpers/training.js';

const SIZE = { columns: 80, rows: 24 };

// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\u001B\[[0-9;]*m/g, '');

describe('a cluster run on the Rollouts screen', () => {
  it('follows the tasks\' rollouts live with their task and node, and c cancels the array', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-cluster-ui-'));
    chmodSync(home, 0o755);
    const env = { BUGBENCH_HOME: home, BUGBENCH_SLURM_DIR: LOCAL_SLURM_DIR, SLURMRESTD_URL: '', SLURMRESTD_SOCKET: '', SLURM_JWT: '', DOCKER_HOST: '' };
    const child = execa('node', [BIN, 'inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '--policy', 'offline', '--seed', '7', '--cluster', 'slurm', '--tasks', '2', '-n', '12', ...INJECTION_TEST_FLAGS], { env, reject: false });
    const store = Store.open({ root: home });
    let runId = '';
    await vi.waitFor(
      () => {
        store.refresh();
        runId = store.all('runs')[0]?.cluster?.jobId ? store.all('runs')[0]!.id : '';
        expect(runId).not.toBe('');
      },
      { timeout: 60_000, interval: 200 },
    );
    const jobId = clusterOf(store.get('runs', runId)!)!.jobId;

    const term = renderIn(<App core={workbenchCore(store)} />, SIZE);
    const frame = () => plain(term.lastFrame());
    try {
      await vi.waitFor(() => expect(frame()).toContain('Repo images'), { timeout: 60_000 });
      term.stdin.write('3');
      await vi.waitFor(() => expect(frame()).toContain(`Slurm job ${jobId}, 2 tasks`), { timeout: 10_000 });
      // r1 is task 0's first rollout: once it runs, the title says where; its transcript grows from the trajectory.
      // (12 rollouts keep the array busy long enough to be cancelled below.)
      // Task 0 may wait for a core another test file's array holds.
      await vi.waitFor(() => expect(frame()).toMatch(/r1 transcript · task 0, node \S+/), { timeout: STATE_LIMIT_MS, interval: 250 });
      await vi.waitFor(() => expect(frame()).toMatch(/[✓✗▶] \w+ /), { timeout: 60_000, interval: 250 });
      expect(fits(term.lastFrame(), SIZE).lines).toBeLessThan(SIZE.rows);

      // c asks first; a second c cancels.
      term.stdin.write('c');
      await vi.waitFor(() => expect(frame()).toContain(`c again cancels Slurm job ${jobId}`), { timeout: 10_000 });
      term.stdin.write('c');
      await vi.waitFor(() => expect(frame()).toContain(`cancelled Slurm job ${jobId}`), { timeout: 30_000 });
      await vi.waitFor(async () => expect((await clusterTaskStates(clusterOf(store.get('runs', runId)!)!)).map((s) => s.state)).toEqual(['cancelled', 'cancelled']), {
        timeout: 60_000,
        interval: 500,
      });
      // The process that submitted the run sees the array end and closes the run.
      const done = await child;
      expect(done.stderr).toMatch(/task 0: CANCELLED|cancelled/i);
      store.refresh();
      expect(store.get('runs', runId)!.status).toBe('cancelled');
    } finally {
      term.unmount();
      child.kill('SIGINT');
    }
  }, STATE_LIMIT_MS + 400_000);
});
