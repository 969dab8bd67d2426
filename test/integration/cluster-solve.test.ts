/**
 * Solving on the local one-node Slurm (scripts/slurm-up): the K attempts of
 * `solve --cluster slurm --tasks 2` run as an array of two tasks with the
 * node's Docker engine and give the same verdicts, solve rate and rewards as
 * the same solve (same seed) on this machine.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterOf, clusterTaskStates } from '../../src/pipeline/cluster-run.js';
import { Store } from '../../src/store/store.js';
import { artifactPath } from '../helpers/artifacts.js';
import { bugbench } from '../helpers/cli.js';
import { LOCAL_SLURM_DIR } from '../helpers/training.js';

interface Solved {
  runId: string;
  attempts: { id: string; solver: string; status: string; solved: boolean; reward: number | null }[];
  solveRate: number;
  injectReward: number;
}

describe('solving on Slurm', () => {
  it('runs the attempts through an array of 2 tasks, with the same results as on this machine', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-cluster-solve-'));
    const env = { BUGBENCH_HOME: home, BUGBENCH_SLURM_DIR: LOCAL_SLURM_DIR, SLURMRESTD_URL: '', SLURMRESTD_SOCKET: '', SLURM_JWT: '', DOCKER_HOST: '' };
    const imported = await bugbench(['import', artifactPath('valid-two-files'), '--json'], { env, timeout: 300_000 });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const bugId = JSON.parse(imported.stdout).id as string;
    const solve = ['solve', bugId, '-k', '4', '--solver', 'mix', '--seed', '3', '--policy', 'offline', '--json'];

    const local = await bugbench(solve, { env, timeout: 300_000 });
    expect(local.exitCode, local.stderr).toBe(0);
    const here = JSON.parse(local.stdout) as Solved;

    const remote = await bugbench([...solve, '--cluster', 'slurm', '--tasks', '2'], { env, timeout: 400_000 });
    expect(remote.exitCode, remote.stderr).toBe(0);
    const there = JSON.parse(remote.stdout) as Solved;
    const outcome = (r: Solved) => r.attempts.map((a) => [a.solver, a.status, a.solved, a.reward]);
    expect(outcome(there)).toEqual(outcome(here));
    expect(there.solveRate).toBe(here.solveRate);
    expect(there.injectReward).toBe(here.injectReward);

    const store = Store.open({ root: home });
    const cluster = clusterOf(store.get('runs', there.runId)!)!;
    expect(cluster.shares.map((s) => s.indices)).toEqual([[0, 2], [1, 3]]);
    expect((await clusterTaskStates(cluster)).map((s) => s.state)).toEqual(['succeeded', 'succeeded']);
    const rollouts = store.all('rollouts').filter((r) => r.runId === there.runId).sort((a, b) => a.index - b.index);
    expect(rollouts.map((r) => r.task)).toEqual([0, 1, 0, 1]);
    expect(store.get('runs', there.runId)!.status).toBe('finished');
    // The bug's solve summary is the cluster run's, recorded once its tasks ended.
    expect(store.get('bugs', bugId)!.solve).toMatchObject({ runId: there.runId, attempts: 4, solveRate: there.solveRate });
  }, 900_000);
});
