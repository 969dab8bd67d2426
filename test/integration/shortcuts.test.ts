/**
 * The injector's shortcuts of issue 10, as hand-made artifacts on the knotcfg
 * sample (test/fixtures/make-artifacts.sh): each passed all nine checks before
 * the checks held against it, and each must now fail the right check, for the
 * right reason.
 */
import { describe, expect, it } from 'vitest';
import { check, checkJson, expectFailsOnly } from '../helpers/check-report.js';

describe('bad bugs that used to pass', () => {
  it('refuses a bug that picks its wrong answer at random', async () => {
    // Twelve runs of the buggy state: a coin-flip test fails in all of them once in 4096 checks. When the
    // first run passes it, the bug breaks nothing (bug-validity); else a rerun passes it (determinism).
    const { exitCode, report } = await checkJson('random-wrong-answer', '--buggy-runs', '12');
    expect(exitCode).toBe(1);
    const test = 'tests/test_serializer.py::test_format_string_escapes_control_characters';
    if (check(report, 'determinism').verdict === 'fail') {
      expectFailsOnly(report, 'determinism');
      expect(check(report, 'determinism').reason).toMatch(
        new RegExp(`^the bug's failing tests give different results from run to run \\(1 test\\(s\\)\\): ${test.replace(/[.[\]]/g, '\\$&')} \\(\\d+ flips?: failed in "buggy", (passed|failed) in "buggy \\(run \\d+\\)"`),
      );
      expect(report.FAIL_TO_PASS).toEqual([]);
    } else {
      expectFailsOnly(report, 'bug-validity');
      expect(check(report, 'bug-validity').reason).toMatch(/^0 passing test\(s\) fail with the bug/);
    }
  }, 180_000);

  it('fails bug-validity for a buggy state that hangs, and computes no FAIL_TO_PASS from it', async () => {
    const { report } = await checkJson('hanging-buggy-state', '--all');
    expect(report.valid).toBe(false);
    expect(check(report, 'determinism')).toMatchObject({ verdict: 'skipped' });
    expect(check(report, 'determinism').reason).toMatch(/the buggy state cannot be judged: timed out after 10 s in the buggy state \(see bug-validity\)$/);
    expect(check(report, 'bug-validity')).toMatchObject({ verdict: 'fail', reason: 'timed out after 10 s in the buggy state' });
    expect(check(report, 'bug-validity').runs[0]).toMatchObject({ label: 'buggy', timedOut: true });
    // Every later check needs FAIL_TO_PASS, and none is computed from a run that timed out.
    for (const name of ['test-weakening', 'inverse-mutation', 'gold-patch']) {
      expect(check(report, name)).toMatchObject({ verdict: 'fail', reason: 'timed out after 10 s in the buggy state' });
    }
    expect(report.FAIL_TO_PASS).toEqual([]);
    expect(report.PASS_TO_PASS).toEqual([]);
    expect(report.weakening).toMatchObject({ deletedTests: 3, changedTests: 0, files: 1 });
  }, 120_000);

  it('fails test-files for a bug that is a conftest.py failing tests by name', async () => {
    const { report } = await checkJson('conftest-fails-tests');
    expectFailsOnly(report, 'test-files');
    expect(report.checks[0]!.reason).toBe('bug_inject.diff touches test infrastructure: conftest.py (a pytest conftest)');
  });

  it('fails bug-validity for a parser that reports a failure the log does not show', async () => {
    const { report } = await checkJson('parser-invents-failure');
    expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
    expect(check(report, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (pytest -rA) of the "buggy" run's log on 1 test(s): ` +
        'tests/test_serializer.py::test_format_string_escapes_control_characters: the parser says failed, the log says passed',
    );
    expect(report.parser.status).toBe('disagrees');
    expect(report.FAIL_TO_PASS).toEqual([]);
  });
});
