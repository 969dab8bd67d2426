/**
 * The offline policy on the Go and TypeScript samples, end to end through the
 * CLI: each strategy makes bugs that pass the nine checks; then one Go bug goes
 * through solving (the oracle solves it, noop does not), its failed partial
 * repairs become order-2 bugs that are checked in turn, and the bugs export.
 *
 * TypeScript runs here only with BUGBENCH_ALL_LANGUAGE_STRATEGIES=1: every
 * run of the vercraft sample compiles it with tsc (about 3 s), so a TypeScript
 * rollout with its checks costs about 70 s, and the other strategies and the
 * solving path are the same code as in Go. Its `removal` run (seed 7, the same
 * assertions on the weakening and the bug's files) is made in CI on the same
 * vercraft tree by adopted-images.test.ts, adopted and run as a non-root user;
 * `history` and `direct` on TypeScript are covered by the unit tests of the
 * TypeScript edits and measured by `npm run bench:yield` on every sample.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bugbench } from '../helpers/cli.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';

const ALL = ['removal', 'history', 'direct'];
const everything = process.env.BUGBENCH_ALL_LANGUAGE_STRATEGIES === '1';
const SAMPLES = [
  { language: 'Go', image: 'bugbench/repo-ratekit:latest', test: /_test\.go$/, strategies: ALL, solve: true },
  { language: 'TypeScript', image: 'bugbench/repo-vercraft:latest', test: /^test\/.*\.test\.ts$/, strategies: ALL, solve: true },
].filter((sample) => everything || sample.language !== 'TypeScript');

describe.each(SAMPLES)('the offline policy in $language', ({ image, test, strategies, solve }) => {
  const home = mkdtempSync(join(tmpdir(), 'bugbench-offline-languages-'));
  const json = async (...args: string[]) => {
    const result = await bugbench([...args, '--json'], { env: { BUGBENCH_HOME: home }, timeout: 300_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };
  /** Valid bugs, and whether one of the files of each has two hunks (what a partial repair can leave half done). */
  const valid: { id: string; splittable: boolean }[] = [];

  it.each(strategies)('makes bugs that pass the nine checks with %s', async (strategy) => {
    // One rollout each: the bench measures yield (bench:yield); here each strategy must work once, deterministically for its seed.
    const run = await json('inject', '--image', image, '--strategy', strategy, '-n', '1', '--seed', '7', ...INJECTION_TEST_FLAGS);
    const made = run.bugs.filter((b: { valid: boolean }) => b.valid) as { id: string; artifactDir: string }[];
    expect(made.length, JSON.stringify(run.rollouts)).toBeGreaterThanOrEqual(1);
    const dir = made[0]!.artifactDir;
    const hunks = readFileSync(join(dir, 'bug_inject.diff'), 'utf8').split(/^diff --git /m).slice(1).map((f) => f.split(/^@@ /m).length - 1);
    valid.push({ id: made[0]!.id, splittable: hunks.some((n) => n >= 2) });
    // The weakening deletes tests from the language's test files only; the bug stays out of them.
    const touched = (diff: string) => [...readFileSync(join(dir, diff), 'utf8').matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]!);
    expect(touched('test_weaken.diff').every((f) => test.test(f))).toBe(true);
    expect(touched('bug_inject.diff').some((f) => test.test(f))).toBe(false);
  }, 300_000);

  it.runIf(solve)('solves with the oracle, fails with noop, turns failed partial repairs into checked order-2 bugs, and exports', async () => {
    // The injector gives some bugs two changes in one file: a partial repair can fix one and leave the other.
    const bug = valid.find((b) => b.splittable)?.id;
    expect(bug, JSON.stringify(valid)).toBeDefined();
    const solved = await json('solve', bug!, '-k', '3', '--solver', 'mix', '--seed', '4', '--concurrency', '2', '--policy', 'offline');
    const bySolver = (name: string) => solved.attempts.filter((a: { solver: string }) => a.solver === `offline/${name}`);
    expect(bySolver('oracle').length).toBeGreaterThan(0);
    expect(bySolver('oracle').every((a: { solved: boolean }) => a.solved)).toBe(true);
    expect(bySolver('noop').every((a: { solved: boolean }) => !a.solved)).toBe(true);

    const higher = await json('higher-order', bug!);
    expect(higher.bugs.length, JSON.stringify(higher.skipped)).toBeGreaterThanOrEqual(1);
    for (const child of higher.bugs) expect(child).toMatchObject({ valid: true, failedCheck: null });

    const out = join(home, 'bugs.jsonl');
    const exported = await bugbench(['export', '--format', 'swebench', '--status', 'valid', '--out', out], { env: { BUGBENCH_HOME: home } });
    expect(exported.exitCode, exported.stderr).toBe(0);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => r.instance_id)).toEqual(expect.arrayContaining([bug, higher.bugs[0].id]));
    expect(rows.every((r) => r.FAIL_TO_PASS.length > 0)).toBe(true);
  }, 600_000);
});
