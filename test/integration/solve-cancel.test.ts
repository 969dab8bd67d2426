/**
 * Ctrl-C during `bugbench solve` (the newcomer's report, item 4): exit 130,
 * the run and its unfinished attempts recorded as cancelled (not failed), and
 * no verdict made from attempts that were never judged — the JSON says
 * `cancelled` with no solve rate or reward. Waits for an attempt under way,
 * not for a time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { importArtifact } from '../../src/pipeline/import.js';
import { Store } from '../../src/store/store.js';
import { artifactPath } from '../helpers/artifacts.js';
import { BIN } from '../helpers/cli.js';

const home = mkdtempSync(join(tmpdir(), 'bugbench-solve-cancel-'));
let bug = '';

beforeAll(async () => {
  bug = (await importArtifact({ folder: artifactPath('valid-two-files'), analysis: { policy: 'offline' } }, { store: Store.open({ root: home }) })).bug.id;
}, 240_000);

describe('cancelling a solve', () => {
  it('exits 130 and says cancelled, with no solve rate or reward, and records the run cancelled', async () => {
    const child = execa('node', [BIN, 'solve', bug, '-k', '4', '--concurrency', '1', '--solver', 'oracle', '--policy', 'offline', '--json'], {
      reject: false,
      env: { BUGBENCH_HOME: home, CI: 'true' },
    });
    const attempts = () => Store.open({ root: home }).all('attempts');
    await vi.waitFor(() => expect(attempts().some((a) => a.status === 'running')).toBe(true), { timeout: 180_000, interval: 200 });
    child.kill('SIGINT');
    const ended = await child;
    expect(ended.exitCode, ended.stderr).toBe(130);
    const result = JSON.parse(ended.stdout) as { runId: string; status: string; solveRate: unknown; injectReward: unknown; attempts: { status: string }[] };
    expect(result).toMatchObject({ bugId: bug, status: 'cancelled', solveRate: null, injectReward: null });
    expect(result.attempts.filter((a) => a.status === 'evaluated').length).toBeLessThan(4);
    expect(Store.open({ root: home }).get('runs', result.runId)).toMatchObject({ kind: 'solve', status: 'cancelled', error: null });
  }, 420_000);

  // The newcomer's `q q` during a solve once recorded the run as failed: cancelling removes the evaluation containers,
  // and the patch being judged in one saw its exec killed (137). Ctrl-C here lands while a patch is judged.
  it('records a run cancelled while a patch is judged as cancelled, not failed', async () => {
    const child = execa('node', [BIN, 'solve', bug, '-k', '2', '--concurrency', '1', '--solver', 'oracle', '--policy', 'offline', '--json'], {
      reject: false,
      env: { BUGBENCH_HOME: home, CI: 'true' },
    });
    // Judging: the attempt's agent has submitted (its rollout ended) and the attempt has no verdict yet.
    const judging = () => {
      const store = Store.open({ root: home });
      const ended = new Set(store.all('rollouts').filter((r) => r.status === 'submitted').map((r) => r.id));
      return store.all('attempts').some((a) => a.status === 'running' && ended.has(a.id) && store.get('runs', a.runId)?.status === 'running');
    };
    await vi.waitFor(() => expect(judging()).toBe(true), { timeout: 180_000, interval: 50 });
    child.kill('SIGINT');
    const ended = await child;
    expect(ended.exitCode, ended.stderr).toBe(130);
    const result = JSON.parse(ended.stdout) as { runId: string; status: string; attempts: { status: string }[] };
    expect(result.status).toBe('cancelled');
    expect(Store.open({ root: home }).get('runs', result.runId)).toMatchObject({ status: 'cancelled', error: null });
    expect(result.attempts[0]!.status).toBe('cancelled');
  }, 420_000);
});
