import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { Store } from '../../src/store/store.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { BIN, bugbench } from '../helpers/cli.js';

const containersOf = async (runId: string) =>
  (await dockerClient().listContainers({ all: true, filters: { label: ['bugbench.run'] } })).filter((c) => c.Labels['bugbench.run']!.startsWith(runId));

describe('an injection killed with SIGKILL', () => {
  it('leaves no half-written bug, is marked interrupted at the next start, and --resume finishes it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-resume-'));
    const env = { BUGBENCH_HOME: home };
    const child = execa('node', [BIN, 'inject', '--image', 'bugbench/repo-slotsmith:latest', '--strategy', 'removal', '--policy', 'offline', '-n', '3', '--concurrency', '1', '--seed', '7', ...INJECTION_TEST_FLAGS], { env, reject: false });
    // Kill it once the second rollout is under way (the first bug is then stored, or being checked).
    let runId = '';
    await vi.waitFor(
      () => {
        const store = Store.open({ root: home });
        const second = store.all('rollouts').find((r) => r.index === 1);
        expect(second?.status).toBe('running');
        runId = second!.runId;
      },
      { timeout: 90_000, interval: 200 },
    );
    // And once that rollout's container is up, so the kill lands in the middle of its work.
    await vi.waitFor(async () => expect((await containersOf(runId)).length).toBeGreaterThan(0), { timeout: 60_000, interval: 100 });
    child.kill('SIGKILL');
    await child;
    expect(await containersOf(runId)).not.toEqual([]);

    // The next start: the run is interrupted, nothing is half-written.
    const runs = JSON.parse((await bugbench(['runs', '--json'], { env })).stdout);
    expect(runs[0]).toMatchObject({ id: runId, status: 'interrupted' });
    const store = Store.open({ root: home });
    expect(store.all('rollouts').map((r) => r.status)).toEqual(['submitted', 'interrupted', 'pending']);
    for (const bug of store.all('bugs')) {
      expect(['valid', 'invalid', 'cancelled']).toContain(bug.status);
      expect(existsSync(join(home, 'bugs', bug.id, 'bug_inject.diff'))).toBe(true);
    }
    // Only whole artifacts are in bugs/ (staging happens beside the run).
    expect(readdirSync(join(home, 'bugs')).sort()).toEqual(store.all('bugs').map((b) => b.id).sort());

    const resumed = await bugbench(['inject', '--resume', runId, '--json'], { env, timeout: 240_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const result = JSON.parse(resumed.stdout);
    expect(result).toMatchObject({ runId, status: 'finished' });
    expect(result.rollouts.map((r: { reason: string }) => r.reason)).toEqual(['submitted', 'submitted', 'submitted']);
    expect(result.bugs.map((b: { status: string }) => b.status)).toEqual(['valid', 'valid', 'valid']);
    expect(await containersOf(runId)).toEqual([]);
    // The cut-off try of the second rollout is kept beside its finished trajectory.
    expect(readdirSync(join(home, 'runs', runId)).filter((f) => f.includes('-r2.'))).toEqual([`${runId}-r2.jsonl`, `${runId}-r2.try-1.jsonl`]);
    // A finished run has nothing to resume.
    const again = await bugbench(['inject', '--resume', runId, '--json'], { env });
    expect(JSON.parse(again.stdout).rollouts).toHaveLength(3);
    const told = await bugbench(['inject', '--resume', runId], { env });
    expect(told.stderr).toContain(`run ${runId} has nothing left to resume: every rollout ended and every bug was checked; its result follows`);
    expect(told.stdout).toMatch(new RegExp(`^run ${runId} finished: 3 rollout\\(s\\), 3 submitted, 3 valid`, 'm'));
  }, 300_000);

  it('refuses other flags with --resume and an unknown run', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-resume-'));
    const mixed = await bugbench(['inject', '--resume', 'run-x', '-n', '3'], { env: { BUGBENCH_HOME: home } });
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr.trim()).toBe("bugbench: inject --resume takes the run's own options; leave out --n");
    const unknown = await bugbench(['inject', '--resume', 'run-x'], { env: { BUGBENCH_HOME: home } });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr.trim()).toBe('bugbench: no run "run-x" in the workspace store; list them with `bugbench runs`');
  });
});
