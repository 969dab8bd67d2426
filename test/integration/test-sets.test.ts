/**
 * What happens to the oracle suite between runs: a test the original run
 * shows must not silently vanish from a later one, and the weakening is judged
 * by what it does, not mistaken for nondeterminism. A small library of our own
 * with inherited tests and an order-dependent pair, a bug in `total`, and
 * artifacts written from its repository:
 *   inherited      the weakening deletes a test from a base class: its
 *                  subclass's copy goes too, and the bug stays valid;
 *   breaks-others  the weakening also deletes a test another one depends on:
 *                  test-weakening fails and names it;
 *   follows-code   the test script leaves the broken tests out whenever the
 *                  library differs from the commit: refused;
 *   fixed-select   the script always leaves an unrelated test out: valid.
 * And an evaluation that a conftest.py or pytest's table in pyproject.toml
 * would have fooled.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reverseDiff } from '../../src/bugs/reverse-diff.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { check, type JsonReport } from '../helpers/check-report.js';
import { bugbench } from '../helpers/cli.js';
import { makeGitRepo } from '../helpers/git-repo.js';

const TAG = 'bugbench-test/test-sets:latest';

const CORE = `"""Sums and labels."""


def total(items):
    result = 0
    for item in items:
        result += item
    return result


def label(value):
    return f"<{value}>"


def scale(items, factor):
    return [item * factor for item in items]
`;

const TESTS = `from tally.core import label, scale, total

STATE = {}


class TestBase:
    def test_total(self):
        assert total([1, 2, 3]) == 6

    def test_label(self):
        assert label(1) == "<1>"


class TestMore(TestBase):
    def test_scale(self):
        assert scale([1, 2], 3) == [3, 6]


def test_setup_state():
    STATE["ready"] = True


def test_uses_state():
    assert STATE.get("ready")
${Array.from({ length: 10 }, (_, i) => `\n\ndef test_scale_${i}():\n    assert scale([${i}], 2) == [${2 * i}]\n`).join('')}`;

const BUG = CORE.replace('        result += item\n', '        result += item\n        result -= 1\n');

let repo = '';
const out = mkdtempSync(join(tmpdir(), 'bugbench-test-sets-'));

async function git(dir: string, ...args: string[]): Promise<string> {
  return (await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir })).stdout;
}

/** An artifact of the bug with `weaken` applied to the tests and `script` as test_script.sh. */
async function artifact(name: string, script: string, weaken: (tests: string) => string): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'bugbench-test-sets-work-'));
  await execa('git', ['clone', '-q', repo, work]);
  const dir = join(out, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(work, 'tally/core.py'), BUG);
  writeFileSync(join(dir, 'bug_inject.diff'), `${await git(work, 'diff')}\n`);
  await git(work, 'checkout', '-q', '--', '.');
  writeFileSync(join(work, 'tests/test_core.py'), weaken(TESTS));
  writeFileSync(join(dir, 'test_weaken.diff'), `${await git(work, 'diff')}\n`);
  writeFileSync(join(dir, 'test_files.txt'), 'tests/test_core.py\n');
  writeFileSync(join(dir, 'test_script.sh'), `#!/bin/bash\n${script}\n`);
  cpSync(join(PACKAGE_ROOT, 'data', 'parsers', 'pytest_parser.py'), join(dir, 'test_parser.py'));
  const base = (await git(work, 'rev-parse', 'HEAD')).trim();
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ image: { tag: TAG }, baseCommit: base, strategy: 'handwritten', policy: 'human', order: 1, parentId: null, params: { minPassingTests: 10, minChangedFiles: 1, minFailingTests: 1, testTimeoutSec: 60, buggyRuns: 2 } }));
  return dir;
}

const PYTEST = 'python3 -m pytest -rA -p no:cacheprovider tests/test_core.py';
const dropFunction = (text: string, name: string) => text.replace(new RegExp(`\\n    def ${name}\\(self\\):\\n        .*\\n`), '\n').replace(new RegExp(`\\n\\ndef ${name}\\(\\):\\n    .*\\n`), '\n');

async function checked(dir: string): Promise<JsonReport> {
  const result = await bugbench(['check', dir, '--json']);
  return JSON.parse(result.stdout) as JsonReport;
}

beforeAll(async () => {
  repo = await makeGitRepo('tally', [{ message: 'Sums and labels', files: { 'tally/__init__.py': '', 'tally/core.py': CORE, 'tests/test_core.py': TESTS } }]);
  const built = await bugbench(['images', 'build', repo, '--tag', TAG]);
  expect(built.exitCode, built.stderr).toBe(0);
}, 240_000);

afterAll(async () => {
  await dockerClient().getImage(TAG).remove({ force: true }).catch(() => undefined);
});

describe('the tests between runs', () => {
  it('counts a test the weakening deletes from a base class as removed from its subclass too', async () => {
    const report = await checked(await artifact('inherited', PYTEST, (t) => dropFunction(t, 'test_total')));
    expect(report.valid, JSON.stringify(report.checks.map((c) => [c.name, c.verdict, c.reason]))).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['tests/test_core.py::TestBase::test_total', 'tests/test_core.py::TestMore::test_total']);
    expect(check(report, 'test-weakening').reason).toMatch(/hides 2 of 2 failure\(s\) \(2 removed/);
    // The weakened run counts for the failures it still shows, never against a test it removed.
    expect(check(report, 'determinism').verdict).toBe('pass');
  }, 180_000);

  it('fails test-weakening, not determinism, for a weakening that breaks a test it does not touch', async () => {
    const report = await checked(await artifact('breaks-others', PYTEST, (t) => dropFunction(dropFunction(t, 'test_total'), 'test_setup_state')));
    expect(check(report, 'determinism').verdict).toBe('pass');
    expect(check(report, 'test-weakening')).toMatchObject({
      verdict: 'fail',
      reason: expect.stringMatching(/^the weakening breaks 1 test\(s\) it does not touch: tests\/test_core\.py::test_uses_state: passed in "buggy", failed in "buggy \+ weakened tests" and in "buggy \+ weakened tests \(run 2\)"/),
    });
  }, 180_000);

  it('refuses a test script whose selection follows the code, naming the tests it leaves out', async () => {
    const script = `if git diff --quiet HEAD -- tally; then skip=(); else skip=(--deselect 'tests/test_core.py::TestBase::test_total' --deselect 'tests/test_core.py::TestMore::test_total'); fi\n${PYTEST} "\${skip[@]}"`;
    const report = await checked(await artifact('follows-code', script, (t) => dropFunction(t, 'test_scale_3')));
    expect(report.valid).toBe(false);
    // The two tests vanish while the rest of their file runs, and the log says nothing of why (#30 item 5).
    expect(check(report, 'bug-validity')).toMatchObject({
      verdict: 'fail',
      reason: expect.stringMatching(/^2 test\(s\) vanish from the buggy run and nothing new in its log says why .*: tests\/test_core\.py::TestBase::test_total, tests\/test_core\.py::TestMore::test_total$/),
    });
  }, 180_000);

  it('keeps valid a script that always leaves the same unrelated test out', async () => {
    const script = `${PYTEST} --deselect tests/test_core.py::test_scale_9`;
    const report = await checked(await artifact('fixed-select', script, (t) => dropFunction(t, 'test_total')));
    expect(report.valid, JSON.stringify(report.checks.map((c) => [c.name, c.verdict, c.reason]))).toBe(true);
  }, 180_000);

  it('gives a candidate nothing for a conftest.py or a pytest table that hides the failures, and still solves with a real fix beside them', async () => {
    const dir = join(out, 'inherited');
    const file = (path: string, lines: string[]) => [`diff --git a/${path} b/${path}`, 'new file mode 100644', '--- /dev/null', `+++ b/${path}`, `@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`), ''].join('\n');
    // Every test reported as passed, whatever happened.
    const plugin = ['import pytest', '', '', '@pytest.hookimpl(hookwrapper=True)', 'def pytest_runtest_makereport(item, call):', '    outcome = yield', '    outcome.get_result().outcome = "passed"'];
    const evaluate = async (name: string, patch: string) => {
      writeFileSync(join(out, name), patch);
      const result = await bugbench(['eval', dir, '--patch', join(out, name), '--json']);
      return JSON.parse(result.stdout) as { solved: boolean; error?: string };
    };
    expect(await evaluate('conftest.diff', file('tests/conftest.py', plugin))).toMatchObject({ solved: false });
    // The same hook as a module of the library, switched on from pytest's table in pyproject.toml.
    const viaConfig = await evaluate('pyproject.diff', file('tally/cheat.py', plugin) + file('pyproject.toml', ['[tool.pytest.ini_options]', 'addopts = "-p tally.cheat"']));
    expect(viaConfig).toMatchObject({ solved: false, error: expect.stringMatching(/^the patch changes how the tests run: pyproject\.toml \(.*pytest/) });
    // A real fix with a conftest.py beside it: the conftest is put back, the fix stands.
    const honest = await evaluate('honest.diff', reverseDiff(readFileSync(join(dir, 'bug_inject.diff'), 'utf8')) + file('tests/conftest.py', ['# a helper the fix did not need']));
    expect(honest).toMatchObject({ solved: true });
  }, 180_000);
});
