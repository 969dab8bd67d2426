/**
 * Injection as a Slurm job array on the local one-node cluster
 * (scripts/slurm-up): the tasks run as the `bugbench` user with the node's
 * Docker engine and write into a workspace under /tmp; the run is followed
 * live from the workspace, cancelled as a whole, and a killed task's
 * rollouts are resumed by a new array.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { clusterOf, clusterTaskStates } from '../../src/pipeline/cluster-run.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { Store } from '../../src/store/store.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { BIN, bugbench } from '../helpers/cli.js';
import { arrayUnderWay } from '../helpers/cluster-wait.js';
import { LOCAL_SLURM_DIR } from '../helpers/training.js';

const INJECT = ['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '--policy', 'offline', '--seed', '5', '--cluster', 'slurm', '--tasks', '2', ...INJECTION_TEST_FLAGS];

function workspace() {
  const home = mkdtempSync(join(tmpdir(), 'bugbench-cluster-'));
  // Slurm's settings come from the local cluster's file only, whatever this shell says.
  const env = { BUGBENCH_HOME: home, BUGBENCH_SLURM_DIR: LOCAL_SLURM_DIR, SLURMRESTD_URL: '', SLURMRESTD_SOCKET: '', SLURM_JWT: '', DOCKER_HOST: '' };
  return { home, env };
}

/** The run once it is recorded, and the store it is in. */
async function runOf(home: string): Promise<{ store: Store; runId: string }> {
  let runId = '';
  await vi.waitFor(
    () => {
      const run = Store.open({ root: home }).all('runs')[0];
      expect(run?.cluster?.jobId).toBeTruthy();
      runId = run!.id;
    },
    { timeout: 60_000, interval: 200 },
  );
  return { store: Store.open({ root: home }), runId };
}

/** Pids of the `cluster-task` processes of a run's task. */
function taskPids(runId: string, task: number): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(`cluster-task ${runId} --task ${task}`) && !line.includes('/bin/bash'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

const containersOf = async (runId: string) =>
  (await dockerClient().listContainers({ all: true, filters: { label: ['bugbench.run'] } })).filter((c) => c.Labels['bugbench.run']!.startsWith(runId));

describe('injection on Slurm', () => {
  it('makes its bugs through an array of 2 tasks, followed live by replay', async () => {
    const { home, env } = workspace();
    const child = execa('node', [BIN, ...INJECT, '-n', '4', '--json'], { env, reject: false });
    const { runId } = await runOf(home);
    // replay follows the run from the workspace while it runs, and ends with it.
    const replay = await bugbench(['replay', runId, '--json'], { env, timeout: 300_000 });
    const done = await child;
    expect(done.exitCode, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout);
    expect(result).toMatchObject({ runId, status: 'finished' });
    expect(result.rollouts.map((r: { reason: string }) => r.reason)).toEqual(['submitted', 'submitted', 'submitted', 'submitted']);
    expect(result.bugs).toHaveLength(4);
    expect(result.bugs.every((b: { valid: boolean }) => b.valid)).toBe(true);

    const store = Store.open({ root: home });
    const run = store.get('runs', runId)!;
    const cluster = clusterOf(run)!;
    expect(cluster).toMatchObject({ engine: 'slurm', tasks: 2 });
    expect(cluster.shares.map((s) => s.indices)).toEqual([[0, 2], [1, 3]]);
    const rollouts = store.all('rollouts').filter((r) => r.runId === runId).sort((a, b) => a.index - b.index);
    expect(rollouts.map((r) => r.task)).toEqual([0, 1, 0, 1]);
    expect(rollouts.every((r) => r.node && r.node.length > 0)).toBe(true);
    const states = await clusterTaskStates(cluster);
    expect(states.map((s) => s.state)).toEqual(['succeeded', 'succeeded']);
    expect(readFileSync(join(home, cluster.dir, 'task-0.out'), 'utf8')).toMatch(/task 0 of job \d+ on \S+: rollouts 1, 3/);

    // The replay saw every rollout start on its task and node, and saw events before the run ended.
    expect(replay.exitCode, replay.stderr).toBe(0);
    const events = replay.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const starts = events.filter((e) => e.type === 'rollout-started');
    expect(starts.map((e) => e.where.task).sort()).toEqual([0, 0, 1, 1]);
    expect(new Set(events.filter((e) => e.type === 'finished').map((e) => e.rollout)).size).toBe(4);
  }, 600_000);

  it('spreads a run over a corpus of images across the tasks, each rollout on the image the seed gave it', async () => {
    const { home, env } = workspace();
    const images = ['bugbench/repo-knotcfg:latest', 'bugbench/repo-slotsmith:latest', 'bugbench/repo-ratekit:latest'];
    const args = ['inject', ...images.flatMap((image) => ['--image', image]), '--strategy', 'removal', '--policy', 'offline', '--seed', '4', '--cluster', 'slurm', '--tasks', '2', '-n', '3', '--json', ...INJECTION_TEST_FLAGS];
    const done = await bugbench(args, { env, timeout: 500_000 });
    expect(done.exitCode, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout);
    // Seed 4 over 3 images starts at the second; the tasks run rollouts 1, 3 and 2.
    const expected = [images[1], images[2], images[0]];
    expect(result.rollouts.map((r: { image: string }) => r.image)).toEqual(expected);
    expect(result.bugs.every((b: { valid: boolean }) => b.valid)).toBe(true);
    const store = Store.open({ root: home });
    expect(result.bugs.map((b: { id: string }) => store.get('bugs', b.id)!.image)).toEqual(expected);
    // Each task's containers were of the rollout's image.
    const starts = result.rollouts.map((r: { trajectory: string }) => JSON.parse(readFileSync(r.trajectory, 'utf8').split('\n')[0]!));
    expect(starts.map((e: { image: string; where: { task: number } }) => [e.image, e.where.task])).toEqual([[images[1], 0], [images[2], 1], [images[0], 0]]);
  }, 600_000);

  it('cancels the whole array on Ctrl-C', async () => {
    const { home, env } = workspace();
    const child = execa('node', [BIN, ...INJECT, '-n', '4'], { env, reject: false });
    const { runId } = await runOf(home);
    // Task 1 may wait for a core another test file holds: cancelled pending, it ends cancelled too.
    await arrayUnderWay(home);
    child.kill('SIGINT');
    const done = await child;
    expect(done.exitCode, done.stderr).toBe(130);
    expect(done.stderr).toContain('cancelled the job array');
    const store = Store.open({ root: home });
    const run = store.get('runs', runId)!;
    expect(run.status).toBe('cancelled');
    expect((await clusterTaskStates(clusterOf(run)!)).map((s) => s.state)).toEqual(['cancelled', 'cancelled']);
    for (const r of store.all('rollouts')) expect(['cancelled', 'interrupted', 'submitted']).toContain(r.status);
    await vi.waitFor(async () => expect(await containersOf(runId)).toEqual([]), { timeout: 30_000, interval: 500 });
  }, 300_000);

  it('leaves a killed task\'s rollouts interrupted, and --resume runs only those', async () => {
    const { home, env } = workspace();
    // One rollout a task: task 0's is killed under way, task 1's finishes.
    const child = execa('node', [BIN, ...INJECT, '-n', '2', '--json'], { env, reject: false });
    const { runId } = await runOf(home);
    await vi.waitFor(
      () => {
        const store = Store.open({ root: home });
        expect(store.all('rollouts').some((r) => r.task === 0 && r.status === 'running')).toBe(true);
        expect(taskPids(runId, 0).length).toBeGreaterThan(0);
      },
      { timeout: 120_000, interval: 250 },
    );
    for (const pid of taskPids(runId, 0)) process.kill(pid, 'SIGKILL');
    const done = await child;
    const first = JSON.parse(done.stdout);
    expect(first.status).toBe('interrupted');
    const store = Store.open({ root: home });
    const interrupted = store.all('rollouts').filter((r) => r.runId === runId && r.status === 'interrupted');
    expect(interrupted.length).toBeGreaterThan(0);
    expect(interrupted.every((r) => r.task === 0)).toBe(true);
    const firstJob = clusterOf(store.get('runs', runId)!)!.jobId;

    const resumed = await bugbench(['inject', '--resume', runId, '--json'], { env, timeout: 400_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const result = JSON.parse(resumed.stdout);
    expect(result.status).toBe('finished');
    expect(result.rollouts.map((r: { reason: string }) => r.reason)).toEqual(['submitted', 'submitted']);
    const after = Store.open({ root: home });
    const cluster = clusterOf(after.get('runs', runId)!)!;
    expect(cluster.earlierJobs).toEqual([firstJob]);
    // Only what was left went into the new array.
    expect(cluster.shares.flatMap((s) => s.indices).sort()).toEqual(interrupted.map((r) => r.index).sort());
    expect(await containersOf(runId)).toEqual([]);
  }, 900_000);
});
