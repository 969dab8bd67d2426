/**
 * Many rollouts that make the same bug at once: a library with a single
 * function the removal strategy can empty, so every rollout makes one bug.
 * Whatever order their checks finish in, one holds the fingerprint and the
 * rest are duplicates of it; an export holds it once.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInjection } from '../../src/pipeline/inject.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { bugKey } from '../../src/store/duplicates.js';
import { openStore } from '../../src/store/store.js';
import { bugbench } from '../helpers/cli.js';
import { INJECTION_TEST_FLAGS, INJECTION_TEST_PARAMS } from '../helpers/check-params.js';
import { makeGitRepo } from '../helpers/git-repo.js';

const TAG = 'bugbench-test/one-bug:latest';

const CODE = `"""Sums and labels."""


def total(items):
    result = 0
    for item in items:
        result += item
    return result


def label(value):
    return f"<{value}>"
`;

const TESTS = `from tally.core import label, total


def test_total_empty():
    assert total([]) == 0


def test_total_some():
    assert total([1, 2, 3]) == 6


def test_total_negative():
    assert total([-1, 1]) == 0
${Array.from({ length: 10 }, (_, i) => `\n\ndef test_label_${i}():\n    assert label(${i}) == "<${i}>"\n`).join('')}`;

describe('rollouts that make the same bug', () => {
  afterAll(async () => {
    await dockerClient().getImage(TAG).remove({ force: true }).catch(() => undefined);
  });

  it('leave exactly one valid bug and the rest duplicates of it, and an export holds it once', async () => {
    const dir = await makeGitRepo('tally', [
      { message: 'Sums and labels', files: { 'tally/__init__.py': '', 'tally/core.py': CODE, 'tests/test_core.py': TESTS } },
    ]);
    const built = await bugbench(['images', 'build', dir, '--tag', TAG]);
    expect(built.exitCode, built.stderr).toBe(0);
    const result = await runInjection({ image: TAG, strategy: 'removal', policy: 'offline', n: 4, concurrency: 4, seed: 1, params: INJECTION_TEST_PARAMS, maxSteps: 100 }, { store: openStore() });
    expect(result.bugs).toHaveLength(4);
    const statuses = result.bugs.map((b) => b.status).sort();
    expect(statuses, JSON.stringify(result.bugs)).toEqual(['duplicate', 'duplicate', 'duplicate', 'valid']);
    const store = openStore();
    const holder = result.bugs.find((b) => b.status === 'valid')!;
    for (const bug of result.bugs.filter((b) => b.status === 'duplicate')) expect(store.get('bugs', bug.id)!.duplicateOf).toBe(holder.id);
    // The run's own count says one valid bug.
    const runs = await bugbench(['runs', '--json']);
    const run = (JSON.parse(runs.stdout) as { id: string; bugs: { valid: number } }[]).find((r) => r.id === result.runId);
    expect(run?.bugs.valid).toBe(1);

    const out = join(mkdtempSync(join(tmpdir(), 'bugbench-dups-')), 'valid.jsonl');
    const exported = await bugbench(['export', '--format', 'swebench', '--status', 'valid', '--out', out]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { instance_id: string });
    expect(rows.filter((row) => result.bugs.some((b) => b.id === row.instance_id)).map((row) => row.instance_id)).toEqual([holder.id]);
    const keys = rows.map((row) => bugKey(store.get('bugs', row.instance_id)!));
    expect(new Set(keys).size).toBe(keys.length);

    // A duplicate is solved through the bug it repeats, not on its own.
    const twin = result.bugs.find((b) => b.status === 'duplicate')!;
    const solved = await bugbench(['solve', twin.id, '-k', '1']);
    expect(solved.exitCode).not.toBe(0);
    expect(solved.stderr.trim()).toBe(`bugbench: bug ${twin.id} is a duplicate of ${holder.id}: solve that one instead`);

    // Once more from the shell, as a researcher would run the same command again: the summary names the bug it repeats and why.
    const again = await bugbench(['inject', '--image', TAG, '--strategy', 'removal', '--policy', 'offline', '-n', '1', '--seed', '1', ...INJECTION_TEST_FLAGS]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^  \\S+  duplicate of ${holder.id}$`, 'm'));
    expect(again.stdout).toContain('1 bug(s) repeat ones of earlier runs: the offline policy makes the same bugs again for the same seed (this run: seed 1); give another --seed');
    expect(again.stdout).not.toContain('others of this run');

    // In a fresh workspace, a first run whose rollouts make one bug twice: the repository, not the seed, is why.
    const fresh = { BUGBENCH_HOME: mkdtempSync(join(tmpdir(), 'bugbench-dups-fresh-')) };
    const first = await bugbench(['inject', '--image', TAG, '--strategy', 'removal', '--policy', 'offline', '-n', '2', '--seed', '3', ...INJECTION_TEST_FLAGS], { env: fresh });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain('1 bug(s) repeat others of this run: its rollouts found few distinct changes to make in this repository');
    expect(first.stdout).not.toContain('earlier runs');
  }, 240_000);
});
