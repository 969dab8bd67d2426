import { describe, expect, it } from 'vitest';
import { logShowsReason, testGroup, unexplainedVanished } from '../../../src/bugs/vanished.js';

const before = { 't/a.py::x': 'passed', 't/a.py::y': 'passed', 't/b.py::z': 'passed' } as const;

describe('tests that vanish from a run', () => {
  it('names a test left out while the rest of its file ran, with nothing in the log', () => {
    expect(unexplainedVanished(before, { 't/a.py::x': 'passed', 't/b.py::z': 'failed' }, ['t/a.py::y'], '1 passed, 1 failed')).toEqual(['t/a.py::y']);
  });

  it('accepts a whole file gone, a crash or loading error in the log, and a renamed parameter', () => {
    expect(unexplainedVanished(before, { 't/b.py::z': 'passed' }, ['t/a.py::x', 't/a.py::y'], '')).toEqual([]);
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
