/**
 * Slurm arrays on a node where the job user has no Docker engine: the local
 * cluster (scripts/slurm-up) runs the tasks as `bbpodman`, a user outside the
 * docker group with a rootless Podman of its own (scripts/podman-up, started
 * by the test set-up, which also copied the image there). Each task finds the
 * user's Podman socket by itself; a task of a user whose service is not up
 * starts one for its own life.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, inject, it } from 'vitest';
import { clusterOf } from '../../src/pipeline/cluster-run.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { Store } from '../../src/store/store.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { DIST, bugbench } from '../helpers/cli.js';
import { PODMAN_USER } from '../helpers/podman.js';
import { LOCAL_SLURM_DIR } from '../helpers/training.js';

/** Slurm's settings from the local cluster, with the Podman user as the job owner (a JWT for it; the unix socket would run jobs as `bugbench`). */
function workspace() {
  const home = mkdtempSync(join(tmpdir(), 'bugbench-cluster-podman-'));
  const env = { BUGBENCH_HOME: home, BUGBENCH_SLURM_DIR: LOCAL_SLURM_DIR, SLURMRESTD_URL: '', SLURMRESTD_SOCKET: '', SLURM_JWT: '', SLURM_USER: PODMAN_USER, DOCKER_HOST: '' };
  return { home, env };
}

describe('injection on Slurm with the job user\'s rootless Podman', () => {
  it('runs the array on the user\'s Podman, with no Docker group, and doctor says so', async () => {
    const groups = (await execa('id', ['-nG', PODMAN_USER])).stdout.split(' ');
    expect(groups).not.toContain('docker');
    const { home, env } = workspace();

    const doctor = JSON.parse((await bugbench(['doctor', '--json'], { env })).stdout);
    expect(doctor.cluster).toMatchObject({ ok: true, engine: 'slurm' });
    expect(doctor.cluster.containers).toBe(`${PODMAN_USER}'s rootless Podman (its service at ${inject('podmanHost')}; no Docker engine ${PODMAN_USER} may use)`);

    const args = ['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '--policy', 'offline', '--seed', '5', '--cluster', 'slurm', '--tasks', '2', '-n', '2', ...INJECTION_TEST_FLAGS, '--json'];
    const done = await bugbench(args, { env, timeout: 400_000 });
    expect(done.exitCode, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout);
    expect(result).toMatchObject({ status: 'finished' });
    expect(result.rollouts.map((r: { reason: string }) => r.reason)).toEqual(['submitted', 'submitted']);
    expect(result.bugs.map((b: { valid: boolean }) => b.valid)).toEqual([true, true]);

    const store = Store.open({ root: home });
    const cluster = clusterOf(store.get('runs', result.runId)!)!;
    for (const task of [0, 1]) {
      expect(readFileSync(join(home, cluster.dir, `task-${task}.out`), 'utf8')).toMatch(/^engine: rootless Podman 4\.\S+ \(runc\) at unix:\/\/\/\S+\/podman\.sock$/m);
    }
    const left = await dockerClient(inject('podmanHost')).listContainers({ all: true, filters: { label: ['bugbench.run'] } });
    expect(left.filter((c) => c.Labels['bugbench.run']!.startsWith(result.runId))).toEqual([]);
  }, 600_000);

  it('starts a Podman service for a task when the user has none up, and stops it at the end', async () => {
    const runtime = mkdtempSync(join(tmpdir(), 'bugbench-task-runtime-'));
    await execa('chown', [PODMAN_USER, runtime]);
    const script = `
      const { nodeEngine } = await import(${JSON.stringify(`${DIST}/sandbox/node-engine.js`)});
      const engine = await nodeEngine({ PATH: '/usr/bin:/bin', XDG_RUNTIME_DIR: ${JSON.stringify(runtime)} });
      process.stdout.write(engine.description + '\\n');
      await engine.stop();`;
    const uid = (await execa('id', ['-u', PODMAN_USER])).stdout.trim();
    const gid = (await execa('id', ['-g', PODMAN_USER])).stdout.trim();
    // As a Slurm job starts it: the user's ids, no HOME, a runtime folder with no service in it.
    const run = await execa('setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--init-groups', '--', 'env', '-i', 'PATH=/usr/bin:/bin', 'node', '--input-type=module', '-e', script], { reject: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout.trim()).toMatch(new RegExp(`^rootless Podman 4\\.\\S+ \\(runc\\) started for this task at unix://${runtime}/podman/bugbench-task-\\d+\\.sock$`));
    // Stopped with the task: nothing answers there any more.
    const socket = run.stdout.trim().split(' at unix://')[1]!;
    await expect(dockerClient(`unix://${socket}`).ping()).rejects.toThrow();
  }, 60_000);
});

