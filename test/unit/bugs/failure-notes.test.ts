import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureNotes, formatFailureNotes, NO_DETAIL, NO_RESULT } from '../../../src/bugs/failure-notes.js';
import { PACKAGE_ROOT } from '../../../src/paths.js';

const LOG = `============================= test session starts ==============================
collected 3 items

tests/test_a.py F.F                                                      [100%]

=================================== FAILURES ===================================
_________________________________ test_sum _________________________________

    def test_sum():
>       assert add(2, 2) == 4
E       assert 0 == 4
E        +  where 0 = add(2, 2)

tests/test_a.py:3: AssertionError
_______________________________ test_parse[x-1] _______________________________

    def test_parse(text, value):
>       assert parse(text) == value
E       TypeError: argument of type 'NoneType' is not iterable

tests/test_a.py:9: TypeError
=========================== short test summary info ============================
PASSED tests/test_a.py::test_ok
FAILED tests/test_a.py::test_sum - assert 0 == 4
FAILED tests/test_a.py::test_parse[x-1] - TypeError: argument of type 'NoneT...
========================= 2 failed, 1 passed in 0.05s ==========================
`;

describe('failure notes', () => {
  it('take each failing test message, whole, with the error lines of its section', () => {
    const notes = failureNotes(LOG, ['tests/test_a.py::test_sum', 'tests/test_a.py::test_parse[x-1]', 'tests/test_a.py::test_gone']);
    expect(notes).toEqual([
      { test: 'tests/test_a.py::test_sum', message: 'assert 0 == 4', details: ['+  where 0 = add(2, 2)'] },
      { test: 'tests/test_a.py::test_parse[x-1]', message: "TypeError: argument of type 'NoneType' is not iterable", details: [] },
      { test: 'tests/test_a.py::test_gone', message: NO_RESULT, details: [] },
    ]);
    expect(formatFailureNotes(notes, 2)).toBe(
      "- tests/test_a.py::test_sum: assert 0 == 4\n    +  where 0 = add(2, 2)\n- tests/test_a.py::test_parse[x-1]: TypeError: argument of type 'NoneType' is not iterable\n- … and 1 more",
    );
  });
});

const fixture = (...path: string[]) => readFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'logs', ...path), 'utf8');
const note = (log: string, test: string) => failureNotes(log, [test])[0]!;

describe('failure notes of every runner bugbench reads', () => {
  it.each(['v-mixed.log', 'json-mixed.log'])('go test (%s): what the test printed, by its bare name or its package path; a parent fails with its subtest; a panic by its message', (name) => {
    const log = fixture('go', name);
    expect(note(log, 'TestSub')).toEqual({ test: 'TestSub', message: 'calc_test.go:13: Sub(5, 3) = 3, want 2', details: [] });
    expect(note(log, 'example.com/rd/calc/TestTable/with_space').message).toBe('calc_test.go:31: got 4 want 5');
    expect(note(log, 'example.com/rd/calc/TestTable').message).toBe('calc_test.go:31: got 4 want 5');
    expect(note(log, 'example.com/rd/calc/TestParallel/p2').message).toBe('calc_test.go:50: p2 fails');
    expect(note(log, 'example.com/rd/boom/TestPanics')).toMatchObject({ message: 'panic: runtime error: index out of range [3] with length 0 [recovered]' });
    // The trace is no part of it, nor go's own lines.
    expect(note(log, 'example.com/rd/boom/TestPanics').details.join('\n')).not.toMatch(/goroutine|testing\.go|^FAIL/m);
  });

  it("pytest --tb=native: the exception that ends the test's last traceback, without frames or captured output", () => {
    const log = fixture('pytest-rA-tb-native.log');
    expect(note(log, 'tests/test_zz.py::test_eq')).toEqual({ test: 'tests/test_zz.py::test_eq', message: 'assert 3 == 4', details: ['AssertionError: assert 3 == 4', '+  where 3 = f()'] });
    // A chained exception: the one raised while handling the first.
    expect(note(log, 'tests/test_zz.py::test_chain')).toEqual({ test: 'tests/test_zz.py::test_chain', message: 'ValueError: bad value', details: ['second line'] });
    expect(note(log, 'tests/test_zz.py::TestK::test_m').details).toEqual(['assert [1, 2] == [1, 3]', 'At index 1 diff: 2 != 3', 'Use -v to get more diff']);
    expect(failureNotes(log, ['tests/test_zz.py::test_eq'])[0]!.details.join('\n')).not.toMatch(/hello out|File "/);
  });

  it('cargo test: the panic and its values from the test stdout section', () => {
    expect(note(fixture('cargo', 'no-fail-fast.log'), 'tests::subs')).toEqual({
      test: 'tests::subs',
      message: "thread 'tests::subs' (3473) panicked at src/lib.rs:39:9:",
      details: ['assertion `left == right` failed', 'left: 3', 'right: 2'],
    });
    expect(note(fixture('cargo', 'no-fail-fast.log'), 'integration::index_panics').details).toEqual(['index out of bounds: the len is 0 but the index is 3']);
    // A run whose result lines do not add up (--quiet prints none) is not read, but its failure sections still are.
    const quiet = fixture('cargo', 'no-fail-fast.log').replace('test tests::subs ... FAILED\n', '');
    expect(note(quiet, 'tests::subs').details).toEqual(['assertion `left == right` failed', 'left: 3', 'right: 2']);
  });

  it('TAP: the diagnostics of node --test and of tape', () => {
    expect(note(fixture('tap', 'node-test-reporter-tap.log'), 'subtracts')).toEqual({
      test: 'subtracts',
      message: 'AssertionError: Expected values to be strictly equal:',
      details: ['3 !== 2', 'expected: 2', 'actual: 3', 'at: /tmp/rd-node/test/calc.test.js:9:1'],
    });
    expect(note(fixture('tap', 'tape-clean.log'), 'three minus one')).toMatchObject({ message: 'expected: 2', details: ['actual: 3', expect.stringMatching(/^at: /)] });
  });

  it('jest, vitest and mocha: the error of each failed test, without code frames or stack', () => {
    expect(note(fixture('js', 'jest-verbose.log'), 'math > nested > throws').message).toBe('TypeError: boom');
    expect(note(fixture('js', 'jest-verbose-color.log'), 'test/calc.test.js > subtracts')).toEqual({
      test: 'test/calc.test.js > subtracts',
      message: 'expect(received).toBe(expected) // Object.is equality',
      details: ['Expected: 2', 'Received: 3'],
    });
    expect(note(fixture('js', 'vitest-verbose.log'), 'test/other.test.js > math > adds again').message).toBe('expected 1 to be 2 // Object.is equality');
    expect(note(fixture('js', 'mocha-spec-clean.log'), 'math > nested > throws')).toEqual({ test: 'math > nested > throws', message: 'TypeError: boom', details: [] });
    expect(note(fixture('js', 'mocha-spec-clean.log'), 'subtracts').details.slice(0, 1)).toEqual(['3 !== 2']);
  });

  it("node's spec reporter and JUnit XML", () => {
    expect(note(fixture('node-spec', 'node-test-spec-calc.log'), 'with subtests > sub fails')).toEqual({
      test: 'with subtests > sub fails',
      message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      details: ['1 !== 2', 'actual: 1,', 'expected: 2,'],
    });
    expect(note(fixture('junit', 'junit5-console-cat.log'), 'com.example.CalcTest.subtracts')).toEqual({
      test: 'com.example.CalcTest.subtracts',
      message: 'org.opentest4j.AssertionFailedError: expected: <2> but was: <3>',
      details: [],
    });
  });

  it('say "no detail in the log" rather than anything the log does not show', () => {
    // TestUpper passed: the log holds its result but nothing about a failure.
    expect(note(fixture('go', 'v-mixed.log'), 'TestUpper').message).toBe(NO_DETAIL);
    // A log no reader knows says nothing either way.
    expect(note('some output\nexit 1\n', 'TestX').message).toBe(NO_DETAIL);
    // Only a log read in full can say a test has no result in it.
    expect(note(fixture('go', 'v-mixed.log'), 'TestNeverWritten').message).toBe(NO_RESULT);
    expect(note(fixture('go', 'no-v.log'), 'TestNeverWritten').message).toBe(NO_DETAIL);
  });
});
