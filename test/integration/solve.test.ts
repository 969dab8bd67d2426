import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/bugs/artifact.js';
import { formatDiffFiles, parseDiffFiles } from '../../src/bugs/diff.js';
import { reverseDiff } from '../../src/bugs/reverse-diff.js';
import { readTrajectory } from '../../src/agent/trajectory.js';
import { importArtifact } from '../../src/pipeline/import.js';
import { DEFAULT_SOLVE, solveBug } from '../../src/pipeline/solve.js';
import { buildStartingState } from '../../src/bugs/starting-state.js';
import { openSandbox } from '../../src/sandbox/engine-table.js';
import { Store } from '../../src/store/store.js';
import { artifactPath, VALID_FAIL_TO_PASS } from '../helpers/artifacts.js';
import { bugbench } from '../helpers/cli.js';

const home = mkdtempSync(join(tmpdir(), 'bugbench-solve-'));
const store = Store.open({ root: home });
const json = async (...args: string[]) => {
  const result = await bugbench([...args, '--json'], { env: { BUGBENCH_HOME: home }, timeout: 240_000 });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};
let bug = '';

beforeAll(async () => {
  bug = (await importArtifact({ folder: artifactPath('valid-two-files'), analysis: { policy: 'offline' } }, { store })).bug.id;
}, 120_000);

describe('solving', () => {
  it('gives s = 1 and -alpha with the oracle solver, each attempt +1, in the documented JSON', async () => {
    const result = await json('solve', bug, '-k', '2', '--solver', 'oracle', '--policy', 'offline');
    expect(Object.keys(result)).toEqual(expect.arrayContaining(['bugId', 'attempts', 'solveRate', 'injectReward']));
    expect(result).toMatchObject({ bugId: bug, solveRate: 1, injectReward: -0.8 });
    for (const attempt of result.attempts) {
      expect(Object.keys(attempt)).toEqual(expect.arrayContaining(['id', 'solved', 'failing', 'patchPath', 'trajectory', 'reward']));
      expect(attempt).toMatchObject({ solved: true, failing: [], reward: 1 });
      expect(readFileSync(attempt.patchPath, 'utf8')).toMatch(/^diff --git a\/knotcfg\//);
    }
  }, 120_000);

  it('gives s = 0 and -alpha with the noop solver, each attempt -1 with the FAIL_TO_PASS tests failing', async () => {
    const result = await json('solve', bug, '-k', '2', '--solver', 'noop', '--alpha', '0.5', '--policy', 'offline');
    expect(result).toMatchObject({ solveRate: 0, injectReward: -0.5 });
    for (const attempt of result.attempts) {
      expect(attempt).toMatchObject({ solved: false, reward: -1 });
      expect(attempt.failing).toEqual(VALID_FAIL_TO_PASS);
    }
  }, 120_000);

  it('gives 0 < s < 1 and 1 - (1 + alpha)s with a mix, and keeps the summary on the bug', async () => {
    const result = await json('solve', bug, '-k', '6', '--solver', 'mix', '--seed', '4', '--concurrency', '3', '--policy', 'offline');
    const solved = result.attempts.filter((a: { solved: boolean }) => a.solved).length;
    expect(solved).toBe(2); // two oracles among six: partial and noop fail on this two-file bug
    expect(result.solveRate).toBeCloseTo(2 / 6);
    expect(result.injectReward).toBeCloseTo(1 - 1.8 * (2 / 6));
    expect(new Set(result.attempts.map((a: { solver: string }) => a.solver))).toEqual(new Set(['offline/oracle', 'offline/partial', 'offline/noop']));
    expect(Store.open({ root: home }).get('bugs', bug)?.solve).toMatchObject({ runId: result.runId, attempts: 6, solved: 2 });
  }, 180_000);

  it('keeps at most C agents at work, and starts the next attempt while the last submitted patch is judged', async () => {
    const order: string[] = [];
    let working = 0;
    let mostAtOnce = 0;
    const result = await solveBug({ ...DEFAULT_SOLVE, bugId: bug, policy: 'offline', k: 3, concurrency: 1, solver: 'oracle' }, { store }, (reported) => {
      if (reported.type === 'rollout') {
        const { rolloutId: id, event } = reported;
        if (event.type === 'rollout-started') {
          working += 1;
          mostAtOnce = Math.max(mostAtOnce, working);
          order.push(`start ${id.split('-').at(-1)}`);
        }
        if (event.type === 'finished') working -= 1;
      }
      if (reported.type === 'attempt') order.push(`judged ${reported.attempt.id.split('-').at(-1)}`);
    });
    expect(result.solveRate).toBe(1);
    expect(mostAtOnce).toBe(1);
    // a2 starts once a1's agent has submitted, before a1's patch has been judged.
    expect(order.indexOf('start a2')).toBeGreaterThan(order.indexOf('start a1'));
    expect(order.indexOf('start a2')).toBeLessThan(order.indexOf('judged a1'));
    expect(order.filter((o) => o.startsWith('judged'))).toHaveLength(3);
  }, 120_000);

  it('turns a failed partial repair into a valid order-2 bug with its own FAIL_TO_PASS, and stops at order 2', async () => {
    const result = await json('higher-order', bug);
    expect(result.parent).toBe(bug);
    expect(result.bugs.length).toBeGreaterThanOrEqual(1);
    const fresh = Store.open({ root: home });
    for (const child of result.bugs) {
      const record = fresh.get('bugs', child.id)!;
      expect(record).toMatchObject({ order: 2, parentId: bug, attemptId: child.attempt });
      const attempt = fresh.get('attempts', child.attempt)!;
      expect(attempt.solver).toBe('offline/partial');
      expect(child).toMatchObject({ valid: true, failedCheck: null });
      const shown = await json('show', child.id);
      // The attempt left a file half-repaired: the solver's own change to it is part of the new state.
      const files = (diff: string) => [...diff.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]);
      expect(files(shown.diffs.pred_patch ?? '')).not.toEqual([]);
      for (const file of files(shown.diffs.pred_patch)) expect(files(shown.diffs.bug_inject)).toContain(file);
      expect(shown.FAIL_TO_PASS.length).toBeGreaterThan(0);
    }
    // Noop attempts change no code: they make no bug; solved ones neither.
    expect(result.skipped.some((s: { reason: string }) => /changed no code/.test(s.reason))).toBe(true);
    const again = await bugbench(['higher-order', result.bugs[0].id], { env: { BUGBENCH_HOME: home } });
    expect(again.exitCode).toBe(1);
    expect(again.stderr.trim()).toBe(`bugbench: bug ${result.bugs[0].id} is of order 2; higher-order bugs stop at order 2`);
  }, 240_000);

  it('makes no order-2 bug of an attempt that only repaired whole files of the bug: what is left is the parent bug itself', async () => {
    // A failed attempt whose patch is exactly the fix of knotcfg/lexer.py, nothing else.
    const lexerFix = formatDiffFiles(parseDiffFiles(reverseDiff(loadArtifact(artifactPath('valid-two-files')).bugInject)).filter((f) => f.newPath === 'knotcfg/lexer.py'));
    const id = `${bug}-whole-file-attempt`;
    writeFileSync(join(home, `${id}.diff`), lexerFix);
    const fresh = Store.open({ root: home });
    const now = new Date().toISOString();
    fresh.transact((tx) =>
      tx.put('attempts', { id, bugId: bug, runId: 'by-hand', index: 0, solver: 'by-hand', statement: 'template', status: 'evaluated', solved: false, failing: ['tests/test_serializer.py::test_dashed_key_stays_bare'], reward: -1, patch: `${id}.diff`, evalLog: null, evalRunMs: null, detail: null, createdAt: now }),
    );
    const result = await json('higher-order', bug);
    expect(result.bugs.map((b: { attempt: string }) => b.attempt)).not.toContain(id);
    expect(result.skipped).toContainEqual({ attempt: id, reason: expect.stringMatching(/^its patch only repaired whole files of the bug \(knotcfg\/lexer\.py\) and changed nothing else/) });
    // The text output says once why the offline solvers make none here, and what would.
    const text = await bugbench(['higher-order', bug], { env: { BUGBENCH_HOME: home } });
    expect(text.stdout).toContain(`skipped ${id}: its patch only repaired whole files of the bug`);
    expect(text.stdout).toContain(`the offline solvers apply whole hunks: a bug of one hunk a file gets none; a model's failed attempts can make one: bugbench solve ${bug} --policy anthropic|openai`);
  }, 240_000);

  it('hands the solver the bug report with --statement report, and exports its successful trajectories as SFT data', async () => {
    const result = await json('solve', bug, '-k', '1', '--solver', 'oracle', '--statement', 'report', '--policy', 'offline');
    const trajectory = readTrajectory(result.attempts[0].trajectory);
    const task = trajectory.messages![0]!.content as string;
    expect(task).toMatch(/<issue>\nBehaviour that used to work is broken: 6 test\(s\)/);
    expect(trajectory.system).toMatch(/fixing a problem/);
    const out = join(home, 'sft.jsonl');
    // The offline solvers are scripts handed the fix: their trajectories enter SFT data only when asked for.
    const refused = await bugbench(['export', '--format', 'sft', '--status', 'valid', '--out', out], { env: { BUGBENCH_HOME: home } });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/come from the scripted offline solvers, which are left out \(`--include-scripted` on `bugbench export` or `bugbench queue submit` takes them\)/);
    const exported = await json('export', '--format', 'sft', '--status', 'valid', '--include-scripted', '--out', out);
    const solvedSoFar = Store.open({ root: home }).all('attempts').filter((a) => a.bugId === bug && a.solved).length;
    expect(exported.count).toBe(solvedSoFar);
    const line = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!);
    expect(line.bug_id).toBe(bug);
    expect(line.messages.map((m: { role: string }) => m.role).slice(0, 4)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(line.messages[2]).toMatchObject({ content: expect.any(String), tool_calls: [{ type: 'function', function: { name: 'bash' } }] });
    expect(line.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['bash', 'editor', 'submit']);
  }, 120_000);
});

describe("the solver's starting state", () => {
  it('has exactly one commit, no object of the original history and none of the artifact', async () => {
    const artifact = loadArtifact(artifactPath('valid-two-files'));
    const sandbox = await openSandbox({ image: 'bugbench/repo-knotcfg:latest', runId: 'test-starting-state' });
    try {
      await buildStartingState(sandbox, artifact, artifact.meta!.baseCommit!);
      expect((await sandbox.run('git rev-list --all | wc -l')).stdout.trim()).toBe('1');
      const base = artifact.meta!.baseCommit!;
      expect((await sandbox.exec(`git cat-file -e ${base}`)).exitCode).not.toBe(0);
      // Every object in the repository is reachable from the one commit: nothing else is stored.
      const stored = Number((await sandbox.run("git count-objects -v | awk '/^count:/{c=$2} /^in-pack:/{p=$2} END{print c+p}'")).stdout.trim());
      const reachable = Number((await sandbox.run('git rev-list --objects --all | wc -l')).stdout.trim());
      expect(stored).toBe(reachable);
      expect((await sandbox.exec('ls /bugbench')).exitCode).not.toBe(0);
      expect((await sandbox.exec('find / -name "*.diff" -path "*bugbench*" 2>/dev/null | head -1')).stdout.trim()).toBe('');
      // And it is the buggy state: the bug is there, the weakened tests are gone.
      expect((await sandbox.run('git show --stat HEAD | head -1')).stdout).toMatch(/^commit /);
      expect((await sandbox.run('grep -c "test_non_ascii_key_is_quoted" tests/test_serializer.py || true')).stdout.trim()).toBe('0');
    } finally {
      await sandbox.remove();
    }
  }, 60_000);
});
