import { describe, expect, it } from 'vitest';
import { logShowsReason, testGroup, unexplainedVanished } from '../../../src/bugs/vanished.js';

const before = { 't/a.py::x': 'passed', 't/a.py::y': 'passed', 't/b.py::z': 'passed' } as const;

describe('tests that vanish from a run', () => {
  it('names a test left out while the rest of its file ran, with nothing in the log', () => {
    expect(unexplainedVanished(before, { 't/a.py::x': 'passed', 't/b.py::z': 'failed' }, ['t/a.py::y'], '1 passed, 1 failed')).toEqual(['t/a.py::y']);
  });

  it('names a whole file gone when no new line of the log names it, and a reason the original log shows too', () => {
    const gone = ['t/a.py::x', 't/a.py::y'];
    expect(unexplainedVanished(before, { 't/b.py::z': 'passed' }, gone, 'PASSED t/b.py::z', 'PASSED t/a.py::x\nPASSED t/b.py::z')).toEqual(gone);
    // A word the script prints in every run explains nothing; the same crash as the original's neither.
    const decoy = 'cleanup: no leftover servers to be killed';
    expect(unexplainedVanished(before, { 't/a.py::x': 'passed', 't/b.py::z': 'failed' }, ['t/a.py::y'], `${decoy}\n1 passed`, `${decoy}\n2 passed`)).toEqual(['t/a.py::y']);
    expect(logShowsReason(`${decoy}\nFatal Python error: Aborted`, `${decoy}\n`)).toBe('Fatal Python error');
    expect(logShowsReason('Fatal Python error: Aborted', 'Fatal Python error: Aborted')).toBeUndefined();
  });

  it('reads a line as new only when the original printed it fewer times, whatever its numbers, and a path only whole', () => {
    // pytest -v: the percentages shift when tests go, and a passing test's name reads like a crash.
    const verbose = (pct: number) => `tests/t.py::test_signal[SIGSEGV] PASSED [ ${pct}%]`;
    const two = { 'tests/t.py::test_signal[SIGSEGV]': 'passed', 'tests/t.py::test_y': 'passed', 'tests/u.py::z': 'passed' } as const;
    expect(unexplainedVanished(two, { 'tests/t.py::test_signal[SIGSEGV]': 'passed', 'tests/u.py::z': 'passed' }, ['tests/t.py::test_y'], verbose(50), verbose(33))).toEqual(['tests/t.py::test_y']);
    // A file whose name differs from another's by a digit is another file: its loading error is new.
    expect(logShowsReason('ERROR collecting tests/test_v2.py', 'ERROR collecting tests/test_v1.py')).toBe('ERROR collecting');
    expect(logShowsReason('line 9: 4242 Segmentation fault (core dumped)', 'line 9: 1717 Segmentation fault (core dumped)')).toBeUndefined();
    // A crash the original printed once (a passing test's captured stderr) is new when the buggy run prints it again.
    const crash = 'Fatal Python error: Segmentation fault';
    expect(logShowsReason(`${crash}\n${crash}`, crash)).toBe('Fatal Python error');
    // Go: every run prints its packages' lines anew (with their times), and a module path is no file; a parent
    // package is not named by its child's line.
    const go = { 'example.com/m/a/TestA': 'passed', 'example.com/m/b/TestB': 'passed', 'example.com/m/b/sub/TestC': 'passed' } as const;
    const ran = 'ok  \texample.com/m/a\t0.012s\nok  \texample.com/m/b/sub\t0.020s';
    expect(unexplainedVanished(go, { 'example.com/m/a/TestA': 'passed', 'example.com/m/b/sub/TestC': 'passed' }, ['example.com/m/b/TestB'], ran, 'ok  \texample.com/m/a\t0.010s')).toEqual(['example.com/m/b/TestB']);
    expect(unexplainedVanished(go, { 'example.com/m/a/TestA': 'passed', 'example.com/m/b/sub/TestC': 'passed' }, ['example.com/m/b/TestB'], `${ran}\nFAIL\texample.com/m/b [setup failed]`, '')).toEqual([]);
  });

  it('accepts a whole file gone that the log names anew, a crash or loading error in the log, and a renamed parameter', () => {
    expect(unexplainedVanished(before, { 't/b.py::z': 'passed' }, ['t/a.py::x', 't/a.py::y'], 'E   ModuleNotFoundError raised in t/a.py', 'all good')).toEqual([]);
    // A runner that names the file of a suite it could not load (node's test runner, vitest).
    const nested = { 'test/a.test.js/suite/x': 'passed', 'test/b.test.js/y': 'passed' } as const;
    expect(unexplainedVanished(nested, { 'test/b.test.js/y': 'passed' }, ['test/a.test.js/suite/x'], 'not ok 1 - test/a.test.js', '')).toEqual([]);
    expect(unexplainedVanished(before, { 't/a.py::x': 'passed' }, ['t/a.py::y'], 'Fatal Python error: Segmentation fault')).toEqual([]);
    expect(unexplainedVanished(before, { 't/a.py::x': 'passed', 't/a.py::y[2]': 'failed' }, ['t/a.py::y'], '')).toEqual([]);
    expect(logShowsReason('ERROR collecting tests/test_serializer.py')).toBe('ERROR collecting');
    expect(logShowsReason('FAIL\texample.com/lru [build failed]')).toBe('[build failed]');
    // With --tb=no pytest names a module that failed to load only in its summary.
    expect(logShowsReason('collected 7 items / 1 error\nERROR tests/test_lexer.py\n!!! Interrupted: 1 error during collection !!!')).toBe('ERROR tests/test_lexer.py');
    expect(logShowsReason('!!! Interrupted: 2 errors during collection !!!')).toBe('2 errors during collection');
    expect(logShowsReason('PASSED tests/test_cli.py::test_run\nERROR tests/test_lexer.py\n===== 3 passed, 1 error in 0.1s =====')).toBe('ERROR tests/test_lexer.py');
    expect(logShowsReason('ERROR tests/test_lexer.py::test_token - fixture missing')).toBeUndefined();
  });

  it('takes no reason from a failing test\'s own traceback, nor from a run the script stopped at its first failure', () => {
    // pytest -x: the bug fails one test with a SyntaxError of its own making, and pytest stops; the other files never ran.
    const stopped = [
      'tests/t.py::a PASSED',
      'tests/t.py::b FAILED',
      '=================================== FAILURES ===================================',
      '___________________________________ test_b ___________________________________',
      'Traceback (most recent call last):',
      "SyntaxError: unexpected character '@'",
      '=========================== short test summary info ============================',
      'FAILED tests/t.py::b',
      '!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!',
      '========================= 1 failed, 1 passed in 0.05s ==========================',
    ].join('\n');
    const three = { 'tests/t.py::a': 'passed', 'tests/t.py::b': 'passed', 'tests/u.py::c': 'passed' } as const;
    expect(logShowsReason(stopped, '3 passed')).toBeUndefined();
    expect(unexplainedVanished(three, { 'tests/t.py::a': 'passed', 'tests/t.py::b': 'failed' }, ['tests/u.py::c'], stopped, '3 passed')).toEqual(['tests/u.py::c']);
    // A crash of the runner itself (no report follows) still explains them; so does a loading error in pytest's ERRORS.
    expect(logShowsReason('tests/t.py::a PASSED\nFatal Python error: Segmentation fault', '')).toBe('Fatal Python error');
    expect(logShowsReason('==================================== ERRORS ====================================\n_____ ERROR collecting tests/u.py _____', '')).toBe('ERROR collecting');
  });

  it('groups tests by file, or by package path', () => {
    expect([testGroup('t/a.py::C::x[1]'), testGroup('lru/TestGet'), testGroup('TestGet')]).toEqual(['t/a.py', 'lru', '']);
  });
});
