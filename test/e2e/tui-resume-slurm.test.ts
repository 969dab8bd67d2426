/**
 * The workbench starts runs through the same core entry as `bugbench inject`
 * (issue 32, item 2), in a real terminal: a run whose workbench was killed
 * is marked resumable on Rollouts and R finishes it; the Run form's engine
 * row sends a run to the local Slurm cluster (scripts/slurm-up), whose job
 * array makes the bug the workbench then shows.
 */
import { readFileSync, mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterOf } from '../../src/pipeline/cluster-run.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { Store } from '../../src/store/store.js';
import { BIN } from '../helpers/cli.js';
import { E2E_TEST_LIMIT_MS, TmuxSession } from '../helpers/tmux.js';
import { LOCAL_SLURM_DIR } from '../helpers/training.js';
import { selectImage } from '../helpers/workbench-keys.js';

const IMAGE = 'bugbench/repo-knotcfg:latest';
/** The run ended without its valid bug: no valid one, cancelled, or stopped with an error. */
const RUN_ENDED_OTHERWISE = /1\/1 done, 0 valid|1 cancelled|The run stopped:/;

const sessions: TmuxSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.kill();
});

/** A workspace of its own, readable by the Slurm job's user. */
function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'bugbench-e2e-scope-'));
  chmodSync(home, 0o755);
  return home;
}

/** The workbench over `home` in a terminal of its own; its process id is written to `pidFile`. */
async function workbench(home: string, env: Record<string, string>, pidFile: string): Promise<TmuxSession> {
  const vars = Object.entries({ CI: 'false', BUGBENCH_HOME: home, ...env })
    .map(([k, v]) => `${k}='${v}'`)
    .join(' ');
  const session = await TmuxSession.start(`sh -c 'echo $$ > ${pidFile}; exec env ${vars.replace(/'/g, `'\\''`)} node ${BIN} tui'; echo "exit status $?"; sleep 30`, { columns: 100, rows: 30 });
  sessions.push(session);
  await session.waitFor(/Repo images \(\d+\)/, 120_000);
  return session;
}

/** On the Run form of `IMAGE`, one bug (the 1 replaces the 3). */
async function oneBugForm(session: TmuxSession): Promise<void> {
  await selectImage(session, IMAGE);
  await session.keys('Enter');
  await session.waitFor(/› strategy +‹ removal ›/);
  await session.keys('Down', '1');
  await session.waitFor(/› bugs +1\b/);
}

const containersOf = async (runId: string) =>
  (await dockerClient().listContainers({ all: true, filters: { label: ['bugbench.run'] } })).filter((c) => c.Labels['bugbench.run']!.startsWith(runId));

describe('the workbench resumes and goes to Slurm as the CLI does', () => {
  it('marks a run whose workbench was killed resumable, and R finishes it', async () => {
    const home = newHome();
    const pidFile = join(home, 'tui.pid');
    const first = await workbench(home, {}, pidFile);
    await oneBugForm(first);
    await first.waitFor(/enter starts the run/);
    await first.keys('Enter');
    await first.waitForState(/r1 +step [1-9]/, RUN_ENDED_OTHERWISE);
    // The workbench dies with its rollout under way: nothing records how the run ended.
    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');
    await first.waitFor(/exit status 137/);
    const runId = Store.open({ root: home }).all('runs')[0]!.id;
    expect(Store.open({ root: home }).get('runs', runId)!.status).toBe('running');

    // The next workbench finds it interrupted; Rollouts marks it, R resumes it live to its valid bug.
    const second = await workbench(home, {}, pidFile);
    await second.keys('3');
    const marked = await second.waitFor(/resumable \(R\): removal on/);
    expect(marked).toContain(`(${runId})`);
    await second.keys('R');
    await second.waitFor(/live: removal on/);
    const done = await second.waitForState(/1\/1 done, 1 valid/, RUN_ENDED_OTHERWISE);
    expect(done).toMatch(/✓✓✓✓✓✓✓✓✓ VALID/);
    expect(done).not.toContain('resumable');
    const store = Store.open({ root: home });
    expect(store.get('runs', runId)!.status).toBe('finished');
    expect(store.all('runs')).toHaveLength(1);
    expect(store.all('bugs').filter((b) => b.runId === runId && b.status === 'valid')).toHaveLength(1);
    expect(await containersOf(runId)).toEqual([]);
    await second.keys('q');
    await second.waitFor(/exit status 0/);
  }, E2E_TEST_LIMIT_MS);

  it("sends a run to Slurm from the Run form's engine row and shows its bug", async () => {
    const home = newHome();
    // Slurm's settings come from the local cluster's file only, whatever this shell says.
    const env = { BUGBENCH_SLURM_DIR: LOCAL_SLURM_DIR, SLURMRESTD_URL: '', SLURMRESTD_SOCKET: '', SLURM_JWT: '', DOCKER_HOST: '' };
    const session = await workbench(home, env, join(home, 'tui.pid'));
    await oneBugForm(session);
    // The engine row is the form's last: up twice from the bugs field.
    await session.keys('Up', 'Up');
    await session.waitFor(/› engine +‹ this machine ›/);
    await session.keys('Right');
    await session.waitFor(/› engine +‹ Slurm, 2 tasks ›/);
    await session.keys('Enter');
    await session.waitFor(/live: removal on/);
    const done = await session.waitForState(/1\/1 done, 1 valid/, RUN_ENDED_OTHERWISE);
    expect(done).toMatch(/VALID/);
    // The bug's verdict comes while the task still ends: the run is over once the Run form may start another.
    await session.keys('2');
    await session.waitForState(/enter starts the run/);
    const store = Store.open({ root: home });
    const run = store.all('runs')[0]!;
    expect(run.status).toBe('finished');
    // One bug, one task: the array was cut to the work there is.
    expect(clusterOf(run)).toMatchObject({ engine: 'slurm', tasks: 1 });
    expect(store.all('rollouts').map((r) => r.task)).toEqual([0]);
    expect(readFileSync(join(home, clusterOf(run)!.dir, 'task-0.out'), 'utf8')).toMatch(/task 0 of job \d+ on \S+: rollouts 1/);
    await session.keys('q');
    await session.waitFor(/exit status 0/);
  }, E2E_TEST_LIMIT_MS);
});
