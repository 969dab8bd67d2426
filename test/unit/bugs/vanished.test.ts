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

  it('groups tests by file, or by package path', () => {
    expect([testGroup('t/a.py::C::x[1]'), testGroup('lru/TestGet'), testGroup('TestGet')]).toEqual(['t/a.py', 'lru', '']);
  });
});
