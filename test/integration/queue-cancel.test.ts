/**
 * `queue cancel` says what it did (issue 34, item 14): the engine keeps
 * reporting a job as running for a moment after it was asked to stop it, and
 * `queue cancel` printed that ("slurm-35 running"). The Ray stand-in's job
 * ignores SIGTERM, so it stays RUNNING until the SIGKILL 3 s later: cancel
 * and status both say "cancelling" then, and "cancelled" once it has ended.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bugbench } from '../helpers/cli.js';
import { seedExportableBugs } from '../helpers/exportable-bugs.js';
import { startRayJobsServer, type RayJobsServer } from '../helpers/ray-jobs-server.js';

let ray: RayJobsServer;
beforeAll(async () => {
  ray = await startRayJobsServer();
});
afterAll(async () => {
  await ray.close();
});

describe('queue cancel', () => {
  it('says cancelling while the engine still reports the job running, as queue status does, then cancelled', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-queue-cancel-'));
    seedExportableBugs(root, [{ id: 'img-removal-aaaa1111', fields: { status: 'accepted' } }]);
    const env = { BUGBENCH_HOME: root, RAY_ADDRESS: ray.url };
    const submitted = await bugbench(['queue', 'submit', '--engine', 'ray', '--format', 'swebench', '--command', "trap '' TERM; echo started; sleep 60", '--json'], { env });
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const id = (JSON.parse(submitted.stdout) as { id: string }).id;
    const state = async () => (JSON.parse((await bugbench(['queue', 'status', id, '--json'], { env })).stdout) as { state: string }).state;
    await vi.waitFor(async () => expect(await state()).toBe('running'), { timeout: 30_000, interval: 300 });

    const cancelled = await bugbench(['queue', 'cancel', id], { env });
    expect(cancelled.exitCode).toBe(0);
    expect(cancelled.stdout.trim()).toBe(`${id} cancelling; the engine still reports RUNNING — \`bugbench queue status ${id}\` says when it has ended`);
    const status = await bugbench(['queue', 'status', id], { env });
    expect(status.stdout).toMatch(new RegExp(`^${id} (cancelling \\(RUNNING\\)|cancelled)`));
    await vi.waitFor(async () => expect((await bugbench(['queue', 'status', id], { env })).stdout).toMatch(new RegExp(`^${id} cancelled`)), { timeout: 30_000, interval: 500 });
    expect((await bugbench(['queue', 'list'], { env })).stdout).toMatch(new RegExp(`${id} +cancelled`));
    // A job that has ended is not asked again.
    expect((await bugbench(['queue', 'cancel', id], { env })).stdout).toMatch(new RegExp(`^${id} cancelled`));
  }, 90_000);
});
