/**
 * The checks of #30 on the knotcfg sample: the runs a bug needs (the original
 * shared by the bugs of one image, script and test files), flaky tests named
 * and dropped rather than fatal, and a test script whose selection follows the
 * code refused. Each check gets a workspace of its own, so no original run is
 * shared unless the test means it to be; the flaky fixtures count their runs
 * in the container, so they run in one lane, where the order is the plan's.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactPath } from '../helpers/artifacts.js';
import { check, expectFailsOnly, type JsonReport } from '../helpers/check-report.js';
import { bugbench } from '../helpers/cli.js';

const freshWorkspace = () => mkdtempSync(join(tmpdir(), 'bugbench-evidence-'));

async function checkIn(home: string, name: string, ...flags: string[]): Promise<JsonReport> {
  const result = await bugbench(['check', name.startsWith('/') ? name : artifactPath(name), '--json', ...flags], { env: { BUGBENCH_HOME: home } });
  return JSON.parse(result.stdout) as JsonReport;
}

/** The test runs a check made (a run shared from an earlier check is not one). */
const made = (report: JsonReport) => [...new Set(report.checks.flatMap((c) => c.runs.filter((r) => !r.reused).map((r) => r.label)))];

const FLAKY = 'tests/test_parser.py::test_top_level_assignments';

describe('the evidence the checks rest on', () => {
  it('judges a two-file bug in eight runs, six once another bug of the same image and script made the original state\'s two runs', async () => {
    const home = freshWorkspace();
    const first = await checkIn(home, 'valid-two-files');
    expect(first.valid).toBe(true);
    // Five runs of the buggy code: the first, the weakened run, the two reverts (each fixing a failing test, they count as one) and two reruns.
    expect(made(first).sort()).toEqual(['buggy', 'buggy (run 2)', 'buggy (run 3)', 'buggy + weakened tests', 'gold patch', 'original', 'revert knotcfg/lexer.py', 'revert knotcfg/serializer.py']);
    expect(check(first, 'determinism').reason).toMatch(/, and each of "revert knotcfg\/lexer\.py", "revert knotcfg\/serializer\.py" fixes a failing test, which a coin that survives one of those reverts does half the time: a bug whose failures come on a coin flip gets this far once in 32$/);
    const second = await checkIn(home, 'valid-two-files');
    expect(second.valid).toBe(true);
    expect(made(second).sort()).toEqual(['buggy', 'buggy (run 2)', 'buggy (run 3)', 'buggy + weakened tests', 'revert knotcfg/lexer.py', 'revert knotcfg/serializer.py']);
    // The gold patch's tree is the original's: its run is the original state's second, shared like the first.
    expect(check(second, 'gold-patch').runs[0]).toMatchObject({ label: 'gold patch', reused: true });
    // The shared run is shown for what it is, with its log copied beside the others.
    const original = check(second, 'parser').runs[0]!;
    expect(original).toMatchObject({ label: 'original', reused: true });
    expect(original.logPath).toMatch(/original\.log$/);
    expect(second.FAIL_TO_PASS).toEqual(first.FAIL_TO_PASS);
    expect(second.PASS_TO_PASS).toEqual(first.PASS_TO_PASS);
  }, 240_000);

  it('runs a one-core suite\'s scripts side by side once a run has shown it leaves the other container a core', async () => {
    const report = await checkIn(freshWorkspace(), 'valid-two-files');
    expect(report.valid).toBe(true);
    const runs = [...new Map(report.checks.flatMap((c) => c.runs.filter((r) => !r.reused).map((r) => [r.label, r] as const))).values()];
    // pytest runs in one process: its processor time is at most its wall time (and it used some).
    for (const run of runs) {
      expect(run.cpu, run.label).toBeDefined();
      expect(run.cpu!.cores).toBeGreaterThanOrEqual(1);
      expect(run.cpu!.ms, run.label).toBeGreaterThan(0);
      expect(run.cpu!.ms, run.label).toBeLessThanOrEqual(run.durationMs * 1.1 + 20);
    }
    // The first starts before any run has told: it holds the lock; the reruns, asked for once the first runs have told, do not.
    expect(runs.find((r) => r.label === 'original')!.sideBySide).toBe(false);
    expect(runs.filter((r) => r.sideBySide).map((r) => r.label)).toContain('buggy (run 3)');
    // With containers whose runs always overlap, there are no turns to take.
    const overlapping = await checkIn(freshWorkspace(), 'valid-two-files', '--parallel', '2');
    expect(overlapping.checks.flatMap((c) => c.runs).every((r) => r.sideBySide === undefined)).toBe(true);
  }, 240_000);

  it('keeps valid a bug whose passing test fails one run in three, naming it flaky and leaving it out of PASS_TO_PASS', async () => {
    const report = await checkIn(freshWorkspace(), 'flaky-pass-to-pass', '--parallel', '1');
    expect(report.valid, JSON.stringify(report.checks.map((c) => [c.name, c.verdict, c.reason]))).toBe(true);
    // It fails on the 3rd and 6th run in the container: the weakened run and the gold patch's, the original state's second.
    expect(report.flaky).toEqual([{ id: FLAKY, flips: 1, seen: 'passed in "original", failed in "gold patch"' }]);
    expect(report.PASS_TO_PASS).not.toContain(FLAKY);
    expect(report.PASS_TO_PASS).toHaveLength(76);
    expect(report.FAIL_TO_PASS).toHaveLength(6);
    expect(check(report, 'determinism').reason).toMatch(/; flaky, dropped from PASS_TO_PASS: tests\/test_parser\.py::test_top_level_assignments \(1 flip: passed in "original", failed in "gold patch"\)$/);
    // It failed in the weakened run too: that is the flake's doing, not the weakening's.
    expect(check(report, 'test-weakening').runs[0]!.results[FLAKY]).toBe('failed');
    expect(check(report, 'test-weakening').verdict).toBe('pass');
  }, 240_000);

  it('tells a test that flakes only in the weakened run from one the weakening breaks, with one more look at that state', async () => {
    // The same flake on the container's third run only: the weakened run, in one lane.
    const dir = join(mkdtempSync(join(tmpdir(), 'bugbench-flaky-weakened-')), 'artifact');
    cpSync(artifactPath('flaky-pass-to-pass'), dir, { recursive: true });
    const script = readFileSync(join(dir, 'test_script.sh'), 'utf8');
    expect(script).toContain('FLAKE_NOW=$(( n % 3 == 0 ))');
    writeFileSync(join(dir, 'test_script.sh'), script.replace('FLAKE_NOW=$(( n % 3 == 0 ))', 'FLAKE_NOW=$(( n == 3 ))'));
    const report = await checkIn(freshWorkspace(), dir, '--parallel', '1');
    expect(report.valid, JSON.stringify(report.checks.map((c) => [c.name, c.verdict, c.reason]))).toBe(true);
    const seen = 'passed in "buggy", failed in "buggy + weakened tests", passed in "buggy + weakened tests (run 2)"';
    expect(report.flaky).toEqual([{ id: FLAKY, flips: 1, seen }]);
    expect(report.PASS_TO_PASS).not.toContain(FLAKY);
    expect(report.PASS_TO_PASS).toHaveLength(76);
    expect(check(report, 'test-weakening').reason).toMatch(new RegExp(`; flaky, dropped from PASS_TO_PASS: ${FLAKY.replace(/[.]/g, '\\.')} \\(1 flip: `));
    expect(check(report, 'test-weakening').runs.map((r) => r.label)).toEqual(['buggy + weakened tests', 'buggy + weakened tests (run 2)']);
    // The gold patch is judged on the task without it too.
    expect(check(report, 'gold-patch').reason).toBe('the reverse of the bug passes all 82 FAIL_TO_PASS and PASS_TO_PASS tests');
  }, 240_000);

  it('refuses a bug whose failing test flips, naming it', async () => {
    const report = await checkIn(freshWorkspace(), 'flaky-fail-to-pass', '--parallel', '1');
    expectFailsOnly(report, 'determinism');
    expect(check(report, 'determinism').reason).toBe(
      `the bug's failing tests give different results from run to run (1 test(s)): ${FLAKY} (2 flips: failed in "buggy", passed in "buggy (run 2)", passed in "buggy + weakened tests")`,
    );
  }, 240_000);

  it('refuses a test script that leaves a test out whenever the library differs from the commit, naming the test', async () => {
    const report = await checkIn(freshWorkspace(), 'selection-follows-code');
    expectFailsOnly(report, 'bug-validity');
    expect(check(report, 'bug-validity').reason).toBe(
      '1 test(s) vanish from the buggy run and nothing new in its log says why (no loading error or crash, no line naming their file): the test script chooses its tests by the state of the code: tests/test_parser.py::test_empty_document',
    );
  }, 240_000);

  it('judges a bug that adds a file under a folder the repository ignores like any other (its states do not leak into each other)', async () => {
    // knotcfg ignores build/: the bug adds knotcfg/build/__init__.py with a number pattern that takes no sign in exponents.
    const dir = join(mkdtempSync(join(tmpdir(), 'bugbench-ignored-')), 'artifact');
    cpSync(artifactPath('valid-two-files'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'bug_inject.diff'),
      [
        'diff --git a/knotcfg/build/__init__.py b/knotcfg/build/__init__.py',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/knotcfg/build/__init__.py',
        '@@ -0,0 +1,3 @@',
        '+import re',
        '+',
        '+_NUMBER_RE = re.compile(r"[+-]?\\d[\\d_]*(\\.\\d[\\d_]*)?([eE]\\d+)?")',
        'diff --git a/knotcfg/lexer.py b/knotcfg/lexer.py',
        '--- a/knotcfg/lexer.py',
        '+++ b/knotcfg/lexer.py',
        '@@ -66,7 +66,10 @@ _KEYWORDS = {',
        ' }',
        ' ',
        ' _IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")',
        '-_NUMBER_RE = re.compile(r"[+-]?\\d[\\d_]*(\\.\\d[\\d_]*)?([eE][+-]?\\d+)?")',
        '+try:',
        '+    from knotcfg.build import _NUMBER_RE',
        '+except ImportError:',
        '+    _NUMBER_RE = re.compile(r"[+-]?\\d[\\d_]*(\\.\\d[\\d_]*)?([eE][+-]?\\d+)?")',
        ' ',
        ' _ESCAPES = {"n": "\\n", "t": "\\t", "r": "\\r", \'"\': \'"\', "\\\\": "\\\\"}',
        ' ',
        '',
      ].join('\n'),
    );
    const report = await checkIn(freshWorkspace(), dir);
    expect(report.checks.filter((c) => c.verdict === 'fail').map((c) => `${c.name}: ${c.reason}`)).toEqual([]);
    expect(report.valid).toBe(true);
    expect(check(report, 'gold-patch').verdict).toBe('pass');
  }, 240_000);

  it('refuses a script that stops at its first failure, though the failure\'s own traceback reads like a loading error', async () => {
    // The bug raises a SyntaxError of its own in the lexer; pytest -x stops there and the other files never run.
    const dir = join(mkdtempSync(join(tmpdir(), 'bugbench-stops-')), 'artifact');
    cpSync(artifactPath('valid-two-files'), dir, { recursive: true });
    writeFileSync(join(dir, 'test_script.sh'), '#!/bin/bash\npython3 -m pytest -x -rA -p no:cacheprovider tests/test_lexer.py tests/test_serializer.py tests/test_parser.py\n');
    writeFileSync(
      join(dir, 'bug_inject.diff'),
      [
        'diff --git a/knotcfg/lexer.py b/knotcfg/lexer.py',
        '--- a/knotcfg/lexer.py',
        '+++ b/knotcfg/lexer.py',
        '@@ -122,7 +122,7 @@ class Lexer:',
        '                 kind, value = _KEYWORDS[word]',
        '                 return Token(kind, word, value, line, col)',
        '             return Token(Kind.IDENT, word, word, line, col)',
        '-        raise self.error(f"unexpected character {ch!r}")',
        '+        raise SyntaxError(f"unexpected character {ch!r}")',
        ' ',
        '     # -- helpers ---------------------------------------------------------',
        ' ',
        '',
      ].join('\n'),
    );
    const report = await checkIn(freshWorkspace(), dir, '--parallel', '1');
    expect(report.valid).toBe(false);
    expect(check(report, 'bug-validity').verdict).toBe('fail');
    expect(check(report, 'bug-validity').reason).toMatch(/^65 test\(s\) vanish from the buggy run and the test script stops at its first failures \(pytest -x or --maxfail\), so they never ran: .*: tests\/test_lexer\.py::/);
  }, 240_000);

  it('refuses it too when the script drops a whole test file, or prints a word that reads like a crash in every run', async () => {
    const variant = (script: string) => {
      const dir = join(mkdtempSync(join(tmpdir(), 'bugbench-selection-')), 'artifact');
      cpSync(artifactPath('selection-follows-code'), dir, { recursive: true });
      writeFileSync(join(dir, 'test_script.sh'), `#!/bin/bash\n${script}\n`);
      return dir;
    };
    const wholeFile = await checkIn(
      freshWorkspace(),
      variant('files=(tests/test_lexer.py tests/test_serializer.py tests/test_parser.py)\ngit diff --quiet HEAD -- knotcfg || files=(tests/test_lexer.py tests/test_parser.py)\npython3 -m pytest -rA -p no:cacheprovider "${files[@]}"'),
    );
    expectFailsOnly(wholeFile, 'bug-validity');
    expect(check(wholeFile, 'bug-validity').reason).toMatch(/^\d+ test\(s\) vanish from the buggy run and nothing new in its log says why .*: tests\/test_serializer\.py::/);
    const decoy = await checkIn(
      freshWorkspace(),
      variant('echo "cleanup: no servers left to be killed"\nif git diff --quiet HEAD -- knotcfg; then skip=(); else skip=(--deselect tests/test_parser.py::test_empty_document); fi\npython3 -m pytest -rA -p no:cacheprovider tests/test_lexer.py tests/test_serializer.py tests/test_parser.py "${skip[@]}"'),
    );
    expectFailsOnly(decoy, 'bug-validity');
    expect(check(decoy, 'bug-validity').reason).toMatch(/the state of the code: tests\/test_parser\.py::test_empty_document$/);
  }, 240_000);

  it('keeps valid a bug whose import error hides a whole test module', async () => {
    const report = await checkIn(freshWorkspace(), 'import-error-hides-module');
    expect(report.valid, JSON.stringify(report.checks.map((c) => [c.name, c.verdict, c.reason]))).toBe(true);
    expect(report.FAIL_TO_PASS.length).toBeGreaterThan(10);
    expect(report.FAIL_TO_PASS.every((id) => id.startsWith('tests/test_serializer.py'))).toBe(true);
    // Every test of the module is missing, and the log says why; the other modules ran.
    expect(check(report, 'bug-validity').reason).toMatch(new RegExp(`^${report.FAIL_TO_PASS.length} test\\(s\\) break \\(${report.FAIL_TO_PASS.length} of them missing from the buggy run, counted as failing`));
    expect(report.PASS_TO_PASS.some((id) => id.startsWith('tests/test_lexer.py'))).toBe(true);
  }, 240_000);
});
