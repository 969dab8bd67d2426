import { describe, expect, it } from 'vitest';
import { readLog, readLogWithFailures } from '../../../src/bugs/log-readers/index.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces } from './log-reader-fixtures.js';

const log = (name: string) => fixtureLog('cpp', name);

/** What CTest shows of tally's tests with the median and the trimming broken (see test/fixtures/logs/cpp). */
const CTEST = {
  'StatsTest.EmptyHasZeroMean': 'passed',
  'StatsTest.MeanOfThree': 'passed',
  'StatsTest.MinAndMaxOfNegatives': 'passed',
  'StatsTest.MeanOfTenths': 'passed',
  'MedianTest.OddCount': 'passed',
  'MedianTest.EvenCountIsMeanOfMiddleTwo': 'failed',
  'reads key=value pairs': 'passed',
  'skips comments and blank lines': 'passed',
  'trims spaces around keys and values': 'failed',
} as const;

describe('the ctest reader', () => {
  it('reads a run without --output-on-failure, one test a line', () => {
    expect(readLog(log('ctest-plain.log'))).toMatchObject({ reader: 'ctest', results: CTEST });
    expect(readLog(log('ctest-pass.log'))?.results).toEqual(Object.fromEntries(Object.keys(CTEST).map((t) => [t, 'passed'])));
  });

  it("reads --output-on-failure and -j 2 the same, with GoogleTest's and Catch2's runs of the failing tests inside", () => {
    for (const name of ['ctest-output-on-failure.log', 'ctest-j2.log']) {
      const { reading, failures } = readLogWithFailures(log(name));
      expect(reading?.reader).toBe('GoogleTest + Catch2 console + ctest');
      expect(reading?.results).toEqual(CTEST);
      // The frameworks' own details come first: the assertion and its values, not CTest's banner lines.
      expect(failures.get('MedianTest.EvenCountIsMeanOfMiddleTwo')?.lines).toEqual(['/repo/tests/stats_test.cc:45: Failure', 'Expected equality of these values:', 's.median()', 'Which is: 3', '2.5']);
      expect(failures.get('trims spaces around keys and values')?.lines[1]).toBe('CHECK( pairs["name"] == "tally" )');
    }
  });

  it('reads the log the same in pieces of any size', () => {
    for (const size of [1, 17, 1000]) expect(readInPieces(log('ctest-output-on-failure.log'), size)).toEqual(readLog(log('ctest-output-on-failure.log')));
  });

  it('does not read a run cut short, or one where a test printed a look-alike result line', () => {
    expect(readLog(cutBefore(log('ctest-plain.log'), '78% tests passed'))?.why).toMatch(/did not print its summary/);
    const faked = log('ctest-output-on-failure.log').replace('Note: Google Test filter', '1/9 Test #1: StatsTest.EmptyHasZeroMean ..............***Failed    0.05 sec\nNote: Google Test filter');
    expect(readLog(faked)?.why).toMatch(/^ctest: test #1 \(StatsTest\.EmptyHasZeroMean\) has two results/);
    expect(readLog(log('ctest-plain.log').replace('2 tests failed out of 9', '2 tests failed out of 10'))?.why).toMatch(/where CTest counted 2 failed out of 10/);
  });

  it('leaves skipped and disabled tests out and fails every other status', () => {
    const run = [
      'Test project /b',
      '    Start 1: a',
      '1/4 Test #1: a ................   Passed    0.01 sec',
      '2/4 Test #2: b ................***Exception: SegFault  0.01 sec',
      '3/4 Test #3: c ................***Skipped   0.00 sec',
      '4/4 Test #4: d ................***Not Run (Disabled)   0.00 sec',
      '',
      '50% tests passed, 1 tests failed out of 4',
    ].join('\n');
    expect(readLog(run)?.results).toEqual({ a: 'passed', b: 'failed' });
    expect(readLog('Test project /b\nNo tests were found!!!\n')?.results).toEqual({});
  });

  it('lets an honest parser agree and catches one that invents a failure', () => {
    const reading = readLog(log('ctest-plain.log'))!;
    expect(auditParser({ ...CTEST }, reading).status).toBe('agrees');
    expect(auditParser({ ...CTEST, 'MedianTest.OddCount': 'failed' }, reading)).toMatchObject({ status: 'disagrees' });
  });
});

describe('the GoogleTest reader', () => {
  it("reads a test binary's run, parameterised names and all", () => {
    expect(readLog(log('gtest.log'))).toMatchObject({ reader: 'GoogleTest', results: Object.fromEntries(Object.entries(CTEST).filter(([t]) => /Test\./.test(t))) });
    const param = [
      '[==========] Running 2 tests from 1 test suite.',
      '[ RUN      ] Sizes/Grow.Doubles/0',
      '[       OK ] Sizes/Grow.Doubles/0 (0 ms)',
      '[ RUN      ] Sizes/Grow.Doubles/1',
      '[  FAILED  ] Sizes/Grow.Doubles/1, where GetParam() = 3 (0 ms)',
      '[==========] 2 tests from 1 test suite ran. (0 ms total)',
      '[  PASSED  ] 1 test.',
    ].join('\n');
    expect(readLog(param)?.results).toEqual({ 'Sizes/Grow.Doubles/0': 'passed', 'Sizes/Grow.Doubles/1': 'failed' });
  });

  it('does not read --gtest_brief (failures only), a binary that crashed mid-run, or a result printed by another test', () => {
    expect(readLog(log('gtest-brief.log'))).toMatchObject({ reader: 'GoogleTest', why: expect.stringMatching(/--gtest_brief=1/) });
    expect(readLog(cutBefore(log('gtest.log'), '[ RUN      ] MedianTest.OddCount'))?.why).toMatch(/did not finish/);
    const faked = log('gtest.log').replace('[ RUN      ] StatsTest.MeanOfThree\n', '[ RUN      ] StatsTest.MeanOfThree\n[  FAILED  ] StatsTest.EmptyHasZeroMean (0 ms)\n');
    expect(readLog(faked)?.why).toMatch(/a result line for StatsTest\.EmptyHasZeroMean while StatsTest\.MeanOfThree was running/);
  });
});

describe("Catch2's reporters", () => {
  it('leaves a console run where some test cases passed unread (it names only failures), saying how to get them all', () => {
    for (const name of ['catch2-console.log', 'catch2-durations.log']) {
      expect(readLog(log(name))).toEqual({ reader: 'Catch2 console', why: expect.stringMatching(/names only the test cases that fail \(2 of 3 passed unnamed\).*-r junit/), namesOnlyFailures: true });
    }
  });

  it("reads the JUnit reporter's report, whose counts are of assertions", () => {
    expect(readLog(log('catch2-junit.log'))?.results).toEqual({
      'parse_test.global.reads key=value pairs': 'passed',
      'parse_test.global.skips comments and blank lines': 'passed',
      'parse_test.global.trims spaces around keys and values': 'failed',
    });
  });

  it('gives way to a whole report of the same log: the console run followed by the JUnit report reads as the report', () => {
    expect(readLog(`${log('catch2-console.log')}${log('catch2-junit.log')}`)?.reader).toBe('JUnit XML');
  });
});
