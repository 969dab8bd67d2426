import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { openSandbox } from '../../src/sandbox/engine-table.js';
import type { BugRecord } from '../../src/store/records.js';
import { Store } from '../../src/store/store.js';
import { artifactPath, VALID_FAIL_TO_PASS } from '../helpers/artifacts.js';
import { BIN, bugbench } from '../helpers/cli.js';

const home = mkdtempSync(join(tmpdir(), 'bugbench-library-'));
const cli = (...args: string[]) => bugbench(args, { env: { BUGBENCH_HOME: home } });
const json = async (...args: string[]) => {
  const result = await cli(...args, '--json');
  expect(result.exitCode, result.stderr).toBeLessThanOrEqual(1);
  return JSON.parse(result.stdout);
};

let valid: string;
let invalid: string;

beforeAll(async () => {
  valid = (await json('import', artifactPath('valid-two-files'))).id;
  invalid = (await json('import', artifactPath('weakening-hides-nothing'))).id;
}, 120_000);

describe('the bug library', () => {
  it('imports and checks artifacts, keeping each verdict and the FAIL_TO_PASS', async () => {
    const shown = await json('show', valid);
    expect(shown).toMatchObject({ id: valid, status: 'valid', image: 'bugbench/repo-knotcfg:latest', strategy: 'handwritten', order: 1 });
    expect(shown.FAIL_TO_PASS).toEqual(VALID_FAIL_TO_PASS);
    expect(shown.checks.map((c: { verdict: string }) => c.verdict)).toEqual(Array(9).fill('pass'));
    expect(shown.artifactDir).toBe(join(home, 'bugs', valid));
    expect(existsSync(join(shown.artifactDir, 'bug_inject.diff'))).toBe(true);
    // Log paths are stored relative to the workspace and shown absolute.
    const report = JSON.parse(readFileSync(join(shown.artifactDir, shown.check.dir, 'report.json'), 'utf8'));
    expect(report.checks[2].runs[0].logPath).toMatch(/^bugs\//);
    expect(shown.checks[2].runs[0].logPath.startsWith(home)).toBe(true);
    const bad = await json('show', invalid);
    expect(bad).toMatchObject({ status: 'invalid', check: { failedCheck: 'test-weakening' } });
  });

  it('marks a second copy of a bug (other hunk offsets) as a duplicate of the first', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'bugbench-dup-'));
    cpSync(artifactPath('valid-two-files'), copy, { recursive: true });
    const diff = readFileSync(join(copy, 'bug_inject.diff'), 'utf8');
    // The same change with other hunk offsets (git applies it a few lines off): still the same bug.
    const shifted = diff.replace(/^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/gm, (_m, a, b, c, d) => `@@ -${Number(a) + 2},${b} +${Number(c) + 2},${d} @@`);
    expect(shifted).not.toBe(diff);
    writeFileSync(join(copy, 'bug_inject.diff'), shifted);
    const dup = await json('import', copy);
    expect(dup).toMatchObject({ status: 'duplicate', duplicateOf: valid });
    // The image named without its tag is the same image: filed under the name inject records, and a duplicate too.
    const untagged = await json('import', copy, '--image', 'bugbench/repo-knotcfg');
    expect(untagged).toMatchObject({ status: 'duplicate', duplicateOf: valid });
    expect((await json('show', untagged.id)).image).toBe('bugbench/repo-knotcfg:latest');
    const list = await json('bugs', '--status', 'duplicate');
    expect(list.map((b: { id: string }) => b.id).sort()).toEqual([dup.id, untagged.id].sort());
  }, 60_000);

  it('accepts a valid bug with who and when, refuses an invalid one in one line, and lists by status', async () => {
    const refused = await cli('accept', invalid);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(new RegExp(`bug ${invalid} is invalid: check test-weakening failed .*only valid bugs can be accepted`));
    expect((await cli('reject', valid)).exitCode).toBe(2);
    const accepted = await json('accept', valid, '--reason', 'two files, exponent parsing');
    expect(accepted).toMatchObject({ status: 'accepted', review: { decision: 'accepted', reason: 'two files, exponent parsing', by: expect.stringContaining('@') } });
    expect(Date.now() - Date.parse(accepted.review.at)).toBeLessThan(60_000);
    expect((await json('bugs', '--status', 'accepted')).map((b: { id: string }) => b.id)).toEqual([valid]);
    const rejected = await json('reject', invalid, '--reason', 'hides nothing');
    expect(rejected.status).toBe('rejected');
    expect((await json('show', invalid)).reviews).toHaveLength(1);
    const text = await cli('bugs', '--image', 'bugbench/repo-knotcfg:latest');
    expect(text.stdout).toMatch(new RegExp(`${valid}\\s+accepted`));
  });

  it('says so when a decision replaces another, keeping both in the history', async () => {
    const rejected = await cli('reject', valid, '--reason', 'too easy');
    expect(rejected.exitCode).toBe(0);
    expect(rejected.stderr).toMatch(/^note: this replaces its acceptance by \S+@\S+ \(\d{4}-\d\d-\d\d\): two files, exponent parsing; both stay in its review history/);
    const again = await cli('accept', valid);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^${valid} accepted by `));
    expect(again.stderr).toMatch(/^note: this replaces its rejection by \S+ \(\d{4}-\d\d-\d\d\): too easy; both stay in its review history \(`bugbench show /);
    expect((await json('show', valid)).reviews.map((r: { decision: string }) => r.decision)).toEqual(['accepted', 'rejected', 'accepted']);
    // The same decision again changes nothing, and says so.
    const same = await cli('accept', valid);
    expect(same.stderr).toBe('');
    expect(same.stdout).toMatch(new RegExp(`^${valid} was already accepted by \\S+ \\(\\d{4}-\\d\\d-\\d\\d\\); nothing changed$`, 'm'));
  });
});

describe('exports', () => {
  const out = mkdtempSync(join(tmpdir(), 'bugbench-export-'));
  const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

  it('writes SWE-bench instances whose fix and test patch pass every FAIL_TO_PASS and PASS_TO_PASS test in the image', async () => {
    const file = join(out, 'swe.jsonl');
    const result = await json('export', '--format', 'swebench', '--out', file);
    expect(result).toMatchObject({ format: 'swebench', count: 1, bugIds: [valid] });
    const [instance] = lines(file);
    expect(Object.keys(instance)).toEqual(expect.arrayContaining(['instance_id', 'repo', 'base_commit', 'patch', 'test_patch', 'problem_statement', 'FAIL_TO_PASS', 'PASS_TO_PASS', 'image_name', 'created_at', 'bugbench']));
    expect(instance).toMatchObject({ instance_id: valid, repo: 'knotcfg', image_name: 'bugbench/repo-knotcfg:latest', docker_image: 'bugbench/repo-knotcfg:latest', FAIL_TO_PASS: VALID_FAIL_TO_PASS, bugbench: { strategy: 'handwritten', order: 1, parent: null } });
    expect(instance.PASS_TO_PASS).toHaveLength(77);
    expect(instance.problem_statement).toContain(instance.test_patch.trimEnd());

    // The round trip: buggy state (bug, weakening), then the instance's patch and test_patch, then its tests.
    const sandbox = await openSandbox({ image: instance.image_name, runId: 'test-export-round-trip' });
    try {
      await sandbox.reset(instance.base_commit);
      for (const diff of [instance.bugbench.bug_patch, instance.bugbench.weaken_patch, instance.patch, instance.test_patch]) await sandbox.applyDiff(diff);
      await sandbox.writeFiles([
        { path: '/tmp/t/test_script.sh', content: instance.bugbench.test_script },
        { path: '/tmp/t/test_parser.py', content: instance.bugbench.test_parser },
      ]);
      const run = await sandbox.exec('bash /tmp/t/test_script.sh > /tmp/t/log 2>&1; python3 /tmp/t/test_parser.py < /tmp/t/log');
      const map = JSON.parse(run.stdout) as Record<string, string>;
      for (const test of [...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS]) expect(map[test], test).toBe('passed');
    } finally {
      await sandbox.remove();
    }
  }, 60_000);

  it('writes RL tasks whose scripts build the starting state and evaluate a patch', async () => {
    const file = join(out, 'rl.jsonl');
    expect((await cli('export', '--format', 'rl', '--out', file)).exitCode).toBe(0);
    const [task] = lines(file);
    expect(task).toMatchObject({ task_id: valid, image: 'bugbench/repo-knotcfg:latest', workdir: '/repo' });
    const evaluate = async (candidate: string) => {
      const sandbox = await openSandbox({ image: task.image, runId: 'test-export-rl' });
      try {
        await sandbox.writeFiles([
          { path: '/tmp/eval.sh', content: task.eval_script },
          { path: '/tmp/candidate.diff', content: candidate },
        ]);
        return JSON.parse((await sandbox.run('bash /tmp/eval.sh /tmp/candidate.diff')).stdout) as Record<string, string>;
      } finally {
        await sandbox.remove();
      }
    };
    const { FAIL_TO_PASS, PASS_TO_PASS, patch } = task.instance;
    const fixed = await evaluate(patch);
    for (const test of [...FAIL_TO_PASS, ...PASS_TO_PASS]) expect(fixed[test], test).toBe('passed');
    const unfixed = await evaluate('');
    expect(FAIL_TO_PASS.filter((t: string) => unfixed[t] === 'passed')).toEqual([]);
    // The setup script leaves one commit and no history.
    const sandbox = await openSandbox({ image: task.image, runId: 'test-export-setup' });
    try {
      await sandbox.writeFile('/tmp/setup.sh', task.setup_script);
      await sandbox.run('bash /tmp/setup.sh');
      expect((await sandbox.run('git rev-list --count HEAD')).stdout.trim()).toBe('1');
      expect((await sandbox.run('git status --porcelain')).stdout.trim()).toBe('');
    } finally {
      await sandbox.remove();
    }
  }, 90_000);

  it('refuses a bad --format and an unwritable --out in one line, writing nothing', async () => {
    const bad = await cli('export', '--format', 'parquet', '--out', join(out, 'x.jsonl'));
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim()).toBe('bugbench: export: --format must be one of swebench, sft, rl, harbor, trajectories, got "parquet"');
    expect(existsSync(join(out, 'x.jsonl'))).toBe(false);
    const nowhere = await cli('export', '--format', 'swebench', '--out', join(out, 'missing', 'x.jsonl'));
    expect(nowhere.exitCode).toBe(1);
    expect(nowhere.stderr.trim()).toBe(`bugbench: cannot write ${join(out, 'missing', 'x.jsonl')}: the folder ${join(out, 'missing')} does not exist`);
    await execa('chmod', ['0555', out]);
    try {
      // root writes anywhere; this part speaks for other users.
      if (process.getuid?.() !== 0) expect((await cli('export', '--format', 'swebench', '--out', join(out, 'y.jsonl'))).exitCode).toBe(1);
    } finally {
      await execa('chmod', ['0755', out]);
    }
  });
});

/** Waits until one of `bugs` is being checked (its checks hold it), the state in which a Ctrl-C stops a check half-way. */
async function checking(bugs: () => BugRecord[]): Promise<void> {
  await vi.waitFor(() => expect(bugs().some((b) => b.checkingBy !== null)).toBe(true), { timeout: 60_000, interval: 20 });
}

describe('cancelled checks', () => {
  it('records interrupted checks as cancelled, never invalid; a new check records the new verdict, and an interrupted re-check keeps it', async () => {
    // A bug whose first checks are interrupted has no verdict: cancelled, never invalid.
    const importing = execa('node', [BIN, 'import', artifactPath('unneeded-file'), '--json'], { env: { BUGBENCH_HOME: home }, reject: false });
    await checking(() => Store.open({ root: home }).all('bugs'));
    importing.kill('SIGINT');
    const imported = await importing;
    expect(imported.exitCode, imported.stdout + imported.stderr).toBe(130);
    const id = (JSON.parse(imported.stdout) as { id: string }).id;
    const cancelled = Store.open({ root: home }).get('bugs', id)!;
    expect(cancelled).toMatchObject({ status: 'cancelled', checkingBy: null, check: { cancelled: true, valid: false, failedCheck: null } });
    expect(cancelled.check!.verdicts).toMatch(/c/);
    expect(cancelled.check!.verdicts).not.toMatch(/f/);
    expect((await cli('accept', id)).stderr).toMatch(/its checks were cancelled; run `bugbench check/);
    const again = await cli('check', id);
    expect(again.exitCode).toBe(1);
    const judged = Store.open({ root: home }).get('bugs', id)!;
    expect(judged).toMatchObject({ status: 'invalid', check: { failedCheck: 'inverse-mutation' } });
    // Checking it again and stopping half-way leaves the verdict it had; the stopped check says CANCELLED.
    const child = execa('node', [BIN, 'check', id], { env: { BUGBENCH_HOME: home }, reject: false });
    await checking(() => [Store.open({ root: home }).get('bugs', id)!]);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, result.stdout + result.stderr).toBe(130);
    expect(result.stdout).toMatch(/CANCELLED/);
    expect(Store.open({ root: home }).get('bugs', id)).toMatchObject({ status: 'invalid', checkingBy: null, check: judged.check });
  }, 90_000);
});
