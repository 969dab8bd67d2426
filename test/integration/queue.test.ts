import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { acceptBug } from '../../src/pipeline/review.js';
import { importArtifact } from '../../src/pipeline/import.js';
import { Store } from '../../src/store/store.js';
import { artifactPath } from '../helpers/artifacts.js';
import { bugbench } from '../helpers/cli.js';
import { seedExportableBugs } from '../helpers/exportable-bugs.js';
import { QUEUED_LIMIT_MS } from '../helpers/training.js';

// Slurm jobs run as the cluster's job user, who must reach the dataset: a workspace it can enter.
const home = mkdtempSync(join(tmpdir(), 'bugbench-queue-'));
chmodSync(home, 0o755);
const env = { BUGBENCH_HOME: home };
const cli = (...args: string[]) => bugbench(args, { env });
const json = async (...args: string[]) => {
  const result = await cli(...args, '--json');
  expect(result.exitCode, result.stderr).toBeLessThanOrEqual(1);
  return JSON.parse(result.stdout);
};

beforeAll(async () => {
  const store = Store.open({ root: home });
  const { bug } = await importArtifact({ folder: artifactPath('valid-two-files'), analysis: { policy: 'offline' } }, { store });
  acceptBug(store, bug.id, 'for the queue test');
}, 2 * QUEUED_LIMIT_MS);

async function until(id: string, states: string[]) {
  let job: { state: string; exitCode: number | null } = { state: '', exitCode: null };
  await vi.waitFor(
    async () => {
      job = await json('queue', 'status', id);
      expect(states).toContain(job.state);
    },
    { timeout: QUEUED_LIMIT_MS, interval: 300 },
  );
  return job;
}

describe('bugbench queue on the local Slurm', () => {
  it('says clearly when the engine does not answer, and records nothing', async () => {
    const keyFile = join(home, 'jwt.key');
    writeFileSync(keyFile, randomBytes(32));
    // First, before any job: nothing in the store can answer for the engine.
    expect(await json('queue', 'list')).toEqual([]);
    const result = await bugbench(['queue', 'submit', '--engine', 'slurm', '--format', 'swebench', '--json'], {
      env: { ...env, SLURMRESTD_URL: 'http://127.0.0.1:9', SLURMRESTD_SOCKET: '', SLURM_USER: 'bugbench', SLURM_JWT_KEY: keyFile },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^bugbench: .*127\.0\.0\.1:9/);
    expect(await json('queue', 'list')).toEqual([]);
  }, 60_000);

  it('submits the accepted bugs as a SWE-bench export, the job reads every line and succeeds; the same submission gives the same job', async () => {
    const first = await json('queue', 'submit', '--engine', 'slurm', '--format', 'swebench');
    expect(first).toMatchObject({ engine: 'slurm', kind: 'rl', format: 'swebench', status: 'accepted', bugCount: 1, lines: 1, created: true });
    expect(first.id).toMatch(/^slurm-\d+$/);
    expect(await until(first.id, ['succeeded'])).toMatchObject({ state: 'succeeded', exitCode: 0 });
    const logs = await cli('queue', 'logs', first.id);
    expect(logs.stdout).toMatch(/dry run: read 1 swebench record\(s\) from .*dataset-swebench\.jsonl, every line a JSON object/);
    const again = await json('queue', 'submit', '--engine', 'slurm', '--format', 'swebench');
    expect(again).toMatchObject({ id: first.id, created: false });
    const list = await json('queue', 'list');
    expect(list.filter((j: { key: string }) => j.key === first.key)).toHaveLength(1);
  }, 2 * QUEUED_LIMIT_MS);

  it('makes a new job for the same dataset with another command or resources, or with --force; refuses an unknown placeholder before submitting', async () => {
    const first = await json('queue', 'submit', '--engine', 'slurm', '--format', 'swebench', '--command', 'echo first {dataset}');
    expect(first).toMatchObject({ created: true, command: 'echo first {dataset}' });
    const other = await json('queue', 'submit', '--engine', 'slurm', '--format', 'swebench', '--command', 'echo second {dataset}');
    expect(other).toMatchObject({ created: true, command: 'echo second {dataset}' });
    expect(other.id).not.toBe(first.id);
    expect(await until(other.id, ['succeeded'])).toMatchObject({ state: 'succeeded' });
    expect((await cli('queue', 'logs', other.id)).stdout).toMatch(/^second .*dataset-swebench\.jsonl/m);
    const moreTime = await json('queue', 'submit', '--engine', 'slurm', '--format', 'swebench', '--command', 'echo second {dataset}', '--time-limit', '5');
    expect(moreTime.id).not.toBe(other.id);
    // The same again is found, and says how to run it anyway.
    const again = await cli('queue', 'submit', '--engine', 'slurm', '--format', 'swebench', '--command', 'echo second {dataset}');
    expect(again.stdout).toMatch(new RegExp(`^${other.id} was already submitted with the same bugs, format, command and resources .*--force`));
    const forced = await json('queue', 'submit', '--engine', 'slurm', '--format', 'swebench', '--command', 'echo second {dataset}', '--force');
    expect(forced.created).toBe(true);
    expect(forced.id).not.toBe(other.id);

    const before = (await json('queue', 'list')).length;
    const typo = await cli('queue', 'submit', '--engine', 'slurm', '--format', 'swebench', '--command', 'train {nope} {dataset}', '--force');
    expect(typo.exitCode).toBe(1);
    expect(typo.stderr.trim()).toMatch(/^bugbench: the training command has an unknown placeholder \{nope\}; known: \{dataset\}/);
    expect((await json('queue', 'list')).length).toBe(before);
  }, 2 * QUEUED_LIMIT_MS);

  it('ends a job whose command exits 3 as failed with exit code 3, and a long one cancelled', async () => {
    const failing = await json('queue', 'submit', '--engine', 'slurm', '--format', 'rl', '--command', 'echo reading {dataset}; exit 3');
    expect(await until(failing.id, ['failed'])).toMatchObject({ state: 'failed', exitCode: 3 });
    const status = await cli('queue', 'status', failing.id);
    expect(status.exitCode).toBe(1);
    expect(status.stdout).toMatch(/failed \(FAILED\), exit 3/);
    // A failed job is not reused: the same dataset submitted again makes a new one.
    const retried = await json('queue', 'submit', '--engine', 'slurm', '--format', 'rl', '--command', 'sleep 120');
    expect(retried.id).not.toBe(failing.id);
    await until(retried.id, ['running', 'queued']);
    const cancelled = await cli('queue', 'cancel', retried.id);
    expect(cancelled.exitCode, cancelled.stderr).toBe(0);
    expect(await until(retried.id, ['cancelled'])).toMatchObject({ state: 'cancelled' });
  }, 2 * QUEUED_LIMIT_MS);

  it('refuses a bad format and says what to do when no bug is accepted', async () => {
    expect((await cli('queue', 'submit', '--engine', 'slurm', '--format', 'csv')).stderr.trim()).toBe(
      'bugbench: queue submit: --format must be one of swebench, sft, rl, harbor, got "csv"',
    );
    const empty = mkdtempSync(join(tmpdir(), 'bugbench-queue-empty-'));
    const none = await bugbench(['queue', 'submit', '--engine', 'local', '--format', 'swebench'], { env: { BUGBENCH_HOME: empty } });
    expect(none.exitCode).toBe(1);
    expect(none.stderr.trim()).toMatch(/there are no accepted bugs to train on; accept some with `bugbench accept <bug-id>`/);
  });

  it("names the folder the job user cannot enter, with its mode, and leaves no job folder behind", async () => {
    // mkdtemp makes the workspace mode 700, root's: the job user cannot reach the dataset in it.
    const closed = mkdtempSync(join(tmpdir(), 'bugbench-queue-closed-'));
    seedExportableBugs(closed, [{ id: 'img-removal-dddd4444', fields: { status: 'accepted' } }]);
    const refused = await bugbench(['queue', 'submit', '--engine', 'slurm', '--format', 'swebench'], { env: { BUGBENCH_HOME: closed } });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`(${closed} is closed to it: mode 700, owner uid 0)`);
    expect(readdirSync(join(closed, 'jobs'))).toEqual([]);
  });
});
