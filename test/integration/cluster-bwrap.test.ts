/**
 * Slurm arrays on nodes with no container engine: the local cluster
 * (scripts/slurm-up) runs the tasks as `bbpodman`, a user outside the docker
 * group, and the run names a folder of packed images (`DOCKER_HOST=bwrap:///DIR`):
 * the tasks get that address, run their sandboxes with bwrap as that user and
 * use neither Docker nor its rootless Podman. Submitting and doctor try the
 * folder from the job user's side first.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clusterOf, clusterTaskStates } from '../../src/pipeline/cluster-run.js';
import { readRecords } from '../../src/sandbox/bwrap/state.js';
import { ownerAlive } from '../../src/sandbox/owner.js';
import { Store } from '../../src/store/store.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { BIN, bugbench } from '../helpers/cli.js';
import { arrayUnderWay } from '../helpers/cluster-wait.js';
import { PODMAN_USER as JOB_USER } from '../helpers/podman.js';
import { LOCAL_SLURM_DIR } from '../helpers/training.js';

const IMAGE = 'bugbench/repo-knotcfg:latest';
const dir = mkdtempSync(join(tmpdir(), 'bb-cluster-bwrap-'));
const images = join(dir, 'images');
const packed = join(images, 'bugbench+repo-knotcfg@latest.sqsh');
let uid = 0;
/** The job user's bwrap folder on this node; with this process's (doctor tries a sandbox), the unpacked images they held before. */
let state = '';
const unpackedBefore = new Map<string, string[]>();
const unpackedIn = (folder: string) => (existsSync(join(folder, 'images')) ? readdirSync(join(folder, 'images')) : []);

/** Slurm's settings from the local cluster, the job user's JWT, and the run's sandboxes in the packed folder. */
function workspace() {
  const home = mkdtempSync(join(tmpdir(), 'bugbench-cluster-bwrap-'));
  const env = { BUGBENCH_HOME: home, BUGBENCH_SLURM_DIR: LOCAL_SLURM_DIR, SLURMRESTD_URL: '', SLURMRESTD_SOCKET: '', SLURM_JWT: '', SLURM_USER: JOB_USER, DOCKER_HOST: `bwrap://${images}` };
  return { home, env };
}

const inject = ['inject', '--image', IMAGE, '--strategy', 'removal', '--policy', 'offline', '--seed', '5', '--cluster', 'slurm', '--tasks', '2', '-n', '2', ...INJECTION_TEST_FLAGS, '--json'];

/** The run once it is recorded with its array. */
async function runOf(home: string): Promise<string> {
  let runId = '';
  await vi.waitFor(
    () => {
      const run = Store.open({ root: home }).all('runs')[0];
      if (run?.status === 'failed') throw new Error(`the run failed: ${run.error}`);
      expect(run?.cluster?.jobId).toBeTruthy();
      runId = run!.id;
    },
    { timeout: 60_000, interval: 200 },
  );
  return runId;
}

/** Waits until each of `tasks` has a rollout running. */
async function rolloutRunning(home: string, tasks: number[]): Promise<void> {
  await vi.waitFor(
    () => {
      const running = Store.open({ root: home }).all('rollouts').filter((r) => r.status === 'running');
      for (const task of tasks) expect(running.some((r) => r.task === task)).toBe(true);
    },
    { timeout: 120_000, interval: 250 },
  );
}

/** The job user's bwrap sandboxes of a run on this node, and its bwrap processes. */
const sandboxesOf = async (runId: string) => (await readRecords(state)).filter((r) => (r.labels['bugbench.run'] ?? '').startsWith(runId));
const bwrapProcesses = () => execFileSync('ps', ['-u', JOB_USER, '-o', 'comm='], { encoding: 'utf8' }).split('\n').filter((c) => c.trim() === 'bwrap');

beforeAll(async () => {
  uid = Number((await execa('id', ['-u', JOB_USER])).stdout.trim());
  state = `/tmp/bugbench-bwrap-${uid}`;
  for (const folder of [state, `/tmp/bugbench-bwrap-${process.getuid?.()}`]) unpackedBefore.set(folder, unpackedIn(folder));
  const pack = await bugbench(['images', 'pack', IMAGE, '--out', `${images}/`, '--json'], { timeout: 300_000 });
  expect(pack.exitCode, pack.stderr).toBe(0);
  chmodSync(dir, 0o755);
}, 300_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  // The images this file's tasks and doctor unpacked (their packed file is gone with `dir`).
  for (const [folder, before] of unpackedBefore) {
    for (const key of unpackedIn(folder).filter((k) => !before.includes(k))) rmSync(join(folder, 'images', key), { recursive: true, force: true });
  }
});

describe('Slurm arrays on bwrap, as a job user with no container engine', () => {
  it('refuses at submit, as doctor says, a folder of packed images the job user cannot read', async () => {
    const { home, env } = workspace();
    chmodSync(dir, 0o700); // mkdtemp's: closed to everyone else
    const doctor = JSON.parse((await bugbench(['doctor', '--json'], { env: { ...env, DOCKER_HOST: `unix:///var/run/docker.sock,${env.DOCKER_HOST}` } })).stdout);
    expect(doctor.cluster.containers).toBe(`none: the Slurm job user "${JOB_USER}" cannot read the folder of packed images ${images} (it, or a folder on the way, is closed to that user); open it (chmod a+rx on each folder on the way) or pack the images where every job user can read them`);
    const closed = await bugbench(inject, { env });
    expect(closed.exitCode).not.toBe(0);
    expect(closed.stderr).toContain(`cannot read the folder of packed images ${images}`);

    chmodSync(dir, 0o755);
    chmodSync(packed, 0o600);
    const unreadable = await bugbench(inject, { env });
    expect(unreadable.stderr).toContain(`the Slurm job user "${JOB_USER}" cannot read ${packed}; chmod a+r them`);
    chmodSync(packed, 0o644);
    // Nothing reached Slurm.
    const runs = Store.open({ root: home }).all('runs');
    expect(runs.map((r) => [r.status, r.cluster?.jobId])).toEqual([['failed', ''], ['failed', '']]);
  });

  it('makes valid bugs with an array of 2 tasks and solves them with another, and doctor says what the tasks use', async () => {
    const groups = (await execa('id', ['-nG', JOB_USER])).stdout.split(' ');
    expect(groups).not.toContain('docker');
    const { home, env } = workspace();

    // A workstation with Docker, whose runs on the cluster use the packed folder.
    const doctor = JSON.parse((await bugbench(['doctor', '--json'], { env: { ...env, DOCKER_HOST: `unix:///var/run/docker.sock,${env.DOCKER_HOST}?name=nodes` } })).stdout);
    expect(doctor.cluster).toMatchObject({ ok: true, engine: 'slurm' });
    expect(doctor.cluster.containers).toMatch(new RegExp(`^bwrap \\S+ sandboxes of ${JOB_USER} over the packed images in ${images}, unpacked in ${state} \\(no container engine\\)$`));

    const started = performance.now();
    const done = await bugbench(inject, { env, timeout: 400_000 });
    const injectMs = performance.now() - started;
    expect(done.exitCode, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout);
    expect(result).toMatchObject({ status: 'finished' });
    expect(result.rollouts.map((r: { reason: string }) => r.reason)).toEqual(['submitted', 'submitted']);
    expect(result.bugs.map((b: { valid: boolean }) => b.valid)).toEqual([true, true]);

    const store = Store.open({ root: home });
    const cluster = clusterOf(store.get('runs', result.runId)!)!;
    expect(cluster.engines).toBe(`bwrap://${images}?name=e1`);
    for (const task of [0, 1]) {
      const out = readFileSync(join(home, cluster.dir, `task-${task}.out`), 'utf8');
      expect(out.split('\n')[0]).toMatch(new RegExp(`^engine: bwrap \\S+ \\(no engine\\) at bwrap://${images}, images unpacked in ${state}$`));
    }

    const bugId = result.bugs[0].id as string;
    const solveStarted = performance.now();
    const solved = await bugbench(['solve', bugId, '-k', '4', '--solver', 'mix', '--seed', '3', '--policy', 'offline', '--cluster', 'slurm', '--tasks', '2', '--json'], { env, timeout: 400_000 });
    const solveMs = performance.now() - solveStarted;
    expect(solved.exitCode, solved.stderr).toBe(0);
    const there = JSON.parse(solved.stdout) as { runId: string; attempts: { solver: string; status: string; solved: boolean }[]; solveRate: number };
    // The same attempts on this machine's Docker give the same verdicts.
    const local = await bugbench(['solve', bugId, '-k', '4', '--solver', 'mix', '--seed', '3', '--policy', 'offline', '--json'], { env: { ...env, DOCKER_HOST: '' }, timeout: 300_000 });
    expect(local.exitCode, local.stderr).toBe(0);
    const here = JSON.parse(local.stdout) as typeof there;
    const outcome = (r: typeof there) => r.attempts.map((a) => [a.solver, a.status, a.solved]);
    expect(outcome(there)).toEqual(outcome(here));
    expect(there.solveRate).toBe(here.solveRate);
    const solveCluster = clusterOf(Store.open({ root: home }).get('runs', there.runId)!)!;
    expect(readFileSync(join(home, solveCluster.dir, 'task-0.out'), 'utf8')).toMatch(/^engine: bwrap /);

    // Nothing left running or kept but the unpacked image.
    expect(readdirSync(join(state, 'sandboxes'))).toEqual([]);
    expect(readdirSync(join(state, 'volumes'))).toEqual([]);
    console.log(`Slurm on bwrap as ${JOB_USER}: inject -n 2 --tasks 2 in ${(injectMs / 1000).toFixed(1)} s, solve -k 4 --tasks 2 in ${(solveMs / 1000).toFixed(1)} s`);
  }, 900_000);

  it('cancels the array on Ctrl-C, and a task killed with -9 leaves nothing the resumed array does not remove; the resume keeps the run\'s engines', async () => {
    const { home, env } = workspace();
    const args = ['inject', '--image', IMAGE, '--strategy', 'removal', '--policy', 'offline', '--seed', '5', '--cluster', 'slurm', '--tasks', '2', ...INJECTION_TEST_FLAGS];
    const cancelled = execa('node', [BIN, ...args, '-n', '4'], { env, reject: false });
    const first = await runOf(home);
    // Task 1 may wait for a core another test file holds: cancelled pending, it ends cancelled too.
    await arrayUnderWay(home);
    // A rollout runs before its sandbox is made (the first on a node unpacks the image).
    await vi.waitFor(async () => expect((await sandboxesOf(first)).length).toBeGreaterThan(0), { timeout: 120_000, interval: 250 });
    cancelled.kill('SIGINT');
    const stopped = await cancelled;
    expect(stopped.exitCode, stopped.stderr).toBe(130);
    expect(Store.open({ root: home }).get('runs', first)!.status).toBe('cancelled');
    await vi.waitFor(async () => expect(await sandboxesOf(first)).toEqual([]), { timeout: 30_000, interval: 500 });
    await vi.waitFor(() => expect(bwrapProcesses()).toEqual([]), { timeout: 30_000, interval: 500 });

    const home2 = workspace();
    const killed = execa('node', [BIN, ...args, '-n', '2', '--json'], { env: home2.env, reject: false });
    const runId = await runOf(home2.home);
    await rolloutRunning(home2.home, [0]);
    // Task 0 runs rollout r1: killed once its sandbox is made.
    await vi.waitFor(async () => expect((await sandboxesOf(`${runId}-r1`)).length).toBeGreaterThan(0), { timeout: 120_000, interval: 250 });
    const pids = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(`cluster-task ${runId} --task 0`) && !line.includes('/bin/bash'))
      .map((line) => Number(line.trim().split(/\s+/)[0]));
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const interrupted = JSON.parse((await killed).stdout);
    expect(interrupted.status).toBe('interrupted');
    // Its sandboxes' processes ended with it; their folders wait for the next bugbench of the user on the node
    // (task 1, when Slurm starts it only once task 0's cores are free, is one and removes them at its start).
    for (const record of await sandboxesOf(`${runId}-r1`)) expect(ownerAlive(record.labels), record.id).toBe(false);

    // Resumed from a shell that names no engine: the new array runs where the run's first did.
    const resumed = await bugbench(['inject', '--resume', runId, '--json'], { env: { ...home2.env, DOCKER_HOST: '' }, timeout: 400_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const result = JSON.parse(resumed.stdout);
    expect(result.status).toBe('finished');
    expect(result.bugs.every((b: { valid: boolean }) => b.valid)).toBe(true);
    const cluster = clusterOf(Store.open({ root: home2.home }).get('runs', runId)!)!;
    expect(cluster.earlierJobs).toHaveLength(1);
    expect((await clusterTaskStates(cluster)).map((s) => s.state)).toEqual(['succeeded']);
    expect(readFileSync(join(home2.home, cluster.dir, 'task-0.out'), 'utf8')).toMatch(/^engine: bwrap /);
    expect(await sandboxesOf(runId)).toEqual([]);
    expect(bwrapProcesses()).toEqual([]);
  }, 900_000);
});
