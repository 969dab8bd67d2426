import { describe, expect, it } from 'vitest';
import { readLog, readLogWithFailures } from '../../../src/bugs/log-readers/index.js';
import { JEST_DEFAULT_READER } from '../../../src/bugs/log-readers/jest-default.js';
import { JEST_READER } from '../../../src/bugs/log-readers/jest-verbose.js';
import { VITEST_DEFAULT_READER } from '../../../src/bugs/log-readers/vitest-default.js';
import { VITEST_READER } from '../../../src/bugs/log-readers/vitest-verbose.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces } from './log-reader-fixtures.js';

const js = (name: string) => fixtureLog('js', name);

/** The failed tests of test/calc.test.js and test/other.test.js (see test/fixtures/logs/js), the only ones these reporters name. */
const FAILED = {
  'test/calc.test.js > subtracts': 'failed',
  'test/calc.test.js > math > nested > throws': 'failed',
  'test/other.test.js > math > adds again': 'failed',
} as const;
const BROKEN_FILE = { 'test/broken.test.js': 'failed' } as const;
const VITEST_LOGS = ['vitest4-default.log', 'vitest4-default-color.log', 'vitest3-default.log', 'vitest1-default.log'];

describe("vitest's default reporter", () => {
  it.each(VITEST_LOGS)('%s: failed tests by name, a file that fails to load optional, the passes counted', (name) => {
    const reading = readLog(js(name));
    expect(reading).toEqual({ reader: VITEST_DEFAULT_READER, results: FAILED, optional: BROKEN_FILE, parts: expect.any(Object), unnamed: { passed: 6, why: expect.stringMatching(/--reporter=verbose/) } });
    for (const size of [1, 13, 700]) expect(readInPieces(js(name), size)).toEqual(reading);
  });

  it('keeps a failed test’s error as its detail', () => {
    expect(readLogWithFailures(js('vitest4-default.log')).failures.get('test/calc.test.js > math > nested > throws')?.lines).toEqual(['TypeError: boom']);
  });

  it('does not read a run cut short, one whose FAIL lines are fewer than its failures, or one where a test printed a file line', () => {
    expect(readLog(cutBefore(js('vitest4-default.log'), '      Tests  '))?.why).toMatch(/the vitest run did not finish/);
    expect(readLog(js('vitest3-default.log').replace(' FAIL  test/calc.test.js > subtracts\n', ''))?.why).toMatch(/vitest counted 3 failed test\(s\) where its log names 2/);
    expect(readLog(js('vitest4-default.log').replace(' ✓ test/pass.test.js (2 tests) 16ms\n', ''))?.why).toMatch(/vitest counted 3 failed of 11 where its file lines show 3 of 9/);
    // test/printing.test.js prints " ✓ test/calc.test.js (99 tests) 1ms" and a totals line.
    expect(js('vitest4-default-look-alike.log')).toMatch(/^ ✓ test\/calc\.test\.js \(99 tests\) 1ms$/m);
    expect(readLog(js('vitest4-default-look-alike.log'))).toMatchObject({ reader: VITEST_DEFAULT_READER, why: expect.stringMatching(/vitest counted/) });
  });

  it('leaves a verbose log to the verbose reader, which reads vitest 4 (its todo is □) and refuses a printed totals line', () => {
    expect(readLog(js('vitest4-verbose.log'))).toMatchObject({ reader: VITEST_READER, results: { ...FAILED, 'test/pass.test.js > all good > two': 'passed' }, optional: BROKEN_FILE });
    expect(readLog(js('vitest4-verbose.log'))?.unnamed).toBeUndefined();
    expect(readLog(js('vitest4-verbose-look-alike.log'))).toMatchObject({ reader: VITEST_READER, why: expect.stringMatching(/vitest counted 99 passed and 0 failed of 99 where its lines show 4 and 3 of 9/) });
  });
});

describe("jest's default reporter", () => {
  it.each(['jest-default.log', 'jest-default-color.log'])('%s: failed tests by name, a file that fails to run optional, the passes counted', (name) => {
    const reading = readLog(js(name));
    expect(reading).toEqual({ reader: JEST_DEFAULT_READER, results: FAILED, optional: BROKEN_FILE, parts: expect.any(Object), unnamed: { passed: 5, why: expect.stringMatching(/--verbose/) } });
    for (const size of [1, 17, 600]) expect(readInPieces(js(name), size)).toEqual(reading);
    expect(readLog(js(name.replace('default', 'verbose')))?.reader).toBe(JEST_READER);
  });

  it('does not read a run cut short, or one whose ● sections are not its failures (a test printed one, or one is missing)', () => {
    expect(readLog(cutBefore(js('jest-default.log'), 'Tests:       3 failed'))?.why).toMatch(/the jest run did not finish/);
    expect(readLog(js('jest-default.log').replace('  ● math › adds again\n', ''))?.why).toMatch(/jest counted 3 failed test\(s\) where its log names 2/);
    const printed = js('jest-default.log').replace('FAIL test/other.test.js\n', 'FAIL test/other.test.js\n  ● invented › failure\n');
    expect(readLog(printed)?.why).toMatch(/jest counted 3 failed test\(s\) where its log names 4/);
    // The printed "Tests:       0 failed, 99 passed, 99 total" before the run's own summary is not taken for it.
    expect(js('jest-default.log')).toMatch(/^Tests: {7}0 failed, 99 passed, 99 total$/m);
  });
});

describe('auditing a parser of a default-reporter log', () => {
  const passes = { 'test/calc.test.js > adds': 'passed', 'test/calc.test.js > math > adds again': 'passed', 'test/calc.test.js > math > nested > adds deep': 'passed', 'test/other.test.js > adds': 'passed' } as const;
  const vitestPasses = { ...passes, 'test/pass.test.js > all good > one': 'passed', 'test/pass.test.js > all good > two': 'passed' } as const;

  it('holds the failures by name and takes the passes on count, saying so', () => {
    const jest = readLog(js('jest-default.log'));
    const jestParser = { ...FAILED, ...passes, 'test/calc.test.js > prints look-alikes': 'passed' } as const;
    expect(auditParser(jestParser, jest)).toEqual({
      status: 'agrees',
      reader: JEST_DEFAULT_READER,
      unseen: "it could not see 5 passing test(s) by name (jest without --verbose names only the failed tests (run jest with --verbose to name every test)); the parser's 5 other passes were taken on count",
    });
    const vitest = readLog(js('vitest3-default.log'));
    expect(auditParser({ ...FAILED, ...vitestPasses }, vitest)).toMatchObject({ status: 'agrees', reader: VITEST_DEFAULT_READER });
    // Leaf titles fold namesakes ("adds" twice) into one entry, so the passes no longer add up to the count.
    expect(auditParser({ subtracts: 'failed', throws: 'failed', 'adds again': 'failed', adds: 'passed', 'adds deep': 'passed', one: 'passed', two: 'passed' }, vitest)).toMatchObject({
      disagreements: [{ test: '(passing tests the log counts but does not name: 6; the parser gives 4 passes under other names)' }],
    });
  });

  it('refuses a parser that invents a failure, hides one, or counts passes the log does not', () => {
    const vitest = readLog(js('vitest4-default.log'));
    expect(auditParser({ ...FAILED, ...vitestPasses, 'test/calc.test.js > adds': 'failed' }, vitest).status).toBe('disagrees');
    expect(auditParser({ ...FAILED, ...vitestPasses, 'test/calc.test.js > subtracts': 'passed' }, vitest)).toMatchObject({ status: 'disagrees', disagreements: expect.arrayContaining([{ test: 'test/calc.test.js > subtracts', parser: 'passed', log: 'failed' }]) });
    const { 'test/other.test.js > math > adds again': _dropped, ...dropped } = FAILED;
    expect(auditParser({ ...dropped, ...vitestPasses }, vitest)).toMatchObject({ status: 'disagrees', disagreements: [{ test: 'test/other.test.js > math > adds again', parser: 'missing', log: 'failed' }] });
    expect(auditParser({ ...FAILED, ...vitestPasses, 'test/pass.test.js > all good > three': 'passed' }, vitest).status).toBe('disagrees');
    const jest = readLog(js('jest-default.log'));
    expect(auditParser({ ...FAILED, ...passes }, jest).status).toBe('disagrees');
  });
});
