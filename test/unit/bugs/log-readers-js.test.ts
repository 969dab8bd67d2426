import { describe, expect, it } from 'vitest';
import { readLog } from '../../../src/bugs/log-readers/index.js';
import { JEST_READER } from '../../../src/bugs/log-readers/jest-verbose.js';
import { MOCHA_READER } from '../../../src/bugs/log-readers/mocha-spec.js';
import { NODE_SPEC_READER } from '../../../src/bugs/log-readers/node-spec.js';
import { VITEST_READER } from '../../../src/bugs/log-readers/vitest-verbose.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces, resolveNames } from './log-reader-fixtures.js';

const js = (name: string) => fixtureLog('js', name);
const spec = (name: string) => fixtureLog('node-spec', name);

/** What test/calc.test.js and test/other.test.js give under jest 29 and vitest 3 (see test/fixtures/logs/js). */
const JEST_OR_VITEST = {
  'test/calc.test.js > adds': 'passed',
  'test/calc.test.js > subtracts': 'failed',
  'test/calc.test.js > prints look-alikes': 'passed',
  'test/calc.test.js > math > adds again': 'passed',
  'test/calc.test.js > math > nested > adds deep': 'passed',
  'test/calc.test.js > math > nested > throws': 'failed',
  'test/other.test.js > adds': 'passed',
  'test/other.test.js > math > adds again': 'failed',
} as const;
const BROKEN_FILE = { 'test/broken.test.js': 'failed' } as const;

describe('the jest and vitest readers', () => {
  it('read every test with its file and describe path; skipped and todo tests left out; a file that fails to load is an optional failure', () => {
    expect(readLog(js('jest-verbose.log'))).toMatchObject({ reader: JEST_READER, results: JEST_OR_VITEST, optional: BROKEN_FILE });
    expect(readLog(js('jest-verbose-color.log'))).toEqual(readLog(js('jest-verbose.log')));
    expect(readLog(js('vitest-verbose.log'))).toMatchObject({ reader: VITEST_READER, results: JEST_OR_VITEST, optional: BROKEN_FILE });
    const names = ['math > nested > throws', 'math nested throws', 'throws', 'calc.test.js::math::nested::throws'];
    expect(Object.values(resolveNames(readLog(js('jest-verbose.log')), names))).toEqual(names.map(() => 'test/calc.test.js > math > nested > throws'));
  });

  it.each(['jest-verbose.log', 'vitest-verbose.log'])('read %s the same in pieces of any size', (name) => {
    for (const size of [1, 11, 500]) expect(readInPieces(js(name), size)).toEqual(readLog(js(name)));
  });

  it('do not read a run cut short, or one whose lines do not add up to its totals', () => {
    expect(readLog(cutBefore(js('jest-verbose.log'), 'Tests:       3 failed'))?.why).toMatch(/the jest run did not finish/);
    expect(readLog(js('jest-verbose.log').replace('  ✓ adds (1 ms)\n', ''))?.why).toMatch(/jest counted 5 passed, 3 failed, 1 skipped, 1 todo of 10 where its trees show 4, 3, 1, 1 \(run jest with --verbose/);
    expect(readLog(cutBefore(js('vitest-verbose.log'), '      Tests  '))?.why).toMatch(/the vitest run did not finish/);
    expect(readLog(js('vitest-verbose.log').replace(' ✓ test/other.test.js > adds 1ms\n', ''))?.why).toMatch(/vitest counted 5 passed and 3 failed of 10 where its lines show 4 and 3 of 9/);
  });

  it('do not take a totals line a test printed for the run’s own', () => {
    // Both logs hold a printed "Tests:       0 failed, 99 passed, 99 total" before the real summary.
    expect(js('jest-verbose.log')).toMatch(/^Tests: {7}0 failed, 99 passed, 99 total$/m);
    expect(readLog(js('jest-verbose.log'))?.why).toBeUndefined();
  });
});

describe('the mocha spec reader', () => {
  const MOCHA = { adds: 'passed', subtracts: 'failed', 'math > adds again': 'failed', 'math > nested > adds deep': 'passed', 'math > nested > throws': 'failed' } as const;

  it('reads the tree: two files whose paths meet read as the worse, pending tests left out, a failed hook optional', () => {
    expect(readLog(js('mocha-spec-clean.log'))).toMatchObject({
      reader: MOCHA_READER,
      results: MOCHA,
      optional: { 'math > with a failing hook > "before all" hook for "never runs"': 'failed' },
    });
    expect(readInPieces(js('mocha-spec-clean.log'), 3)).toEqual(readLog(js('mocha-spec-clean.log')));
  });

  it('does not read a log where a test printed result lines, or whose counts do not add up', () => {
    expect(readLog(js('mocha-spec.log'))?.why).toMatch(/failure 1 comes where failure 2 should/);
    expect(readLog(js('mocha-spec-clean.log').replace('  4 passing', '  5 passing'))?.why).toMatch(/mocha counted 5 passing, 2 pending, 4 failing where its tree shows 4, 2, 4/);
  });
});

describe('the node spec reader', () => {
  it('reads results under their blocks; blocks are optional, skips left out, TODO expected to fail', () => {
    expect(readLog(spec('node-test-spec-calc.log'))).toMatchObject({
      reader: NODE_SPEC_READER,
      results: {
        adds: 'passed',
        subtracts: 'failed',
        'todo one': 'xfailed',
        'math > adds again': 'passed',
        'math > nested > adds deep': 'passed',
        'math > nested > throws': 'failed',
        'with subtests > sub ok': 'passed',
        'with subtests > sub fails': 'failed',
      },
      optional: { math: 'failed', 'math > nested': 'failed', 'with subtests': 'failed' },
    });
    expect(readLog(spec('node-test-spec-file-error.log'))?.results).toEqual({ '/tmp/rd-node2/test/broken.test.js': 'failed', works: 'passed' });
    expect(readInPieces(spec('node-test-spec-calc.log'), 5)).toEqual(readLog(spec('node-test-spec-calc.log')));
  });

  it('does not read a log where a test printed a result line, a block that never closes, or counts that do not add up', () => {
    expect(readLog(spec('node-test-spec.log'))?.why).toMatch(/node counted 12 tests and 2 suites where its lines show 15/);
    expect(readLog(spec('node-test-spec-calc.log').replace(/^✖ math \(.*\n/m, ''))?.why).toMatch(/opens where its parent does not put it/);
    expect(readLog(spec('node-test-spec-calc.log').replace('ℹ pass 4', 'ℹ pass 9'))?.why).toMatch(/node counted 9 passed/);
  });
});

describe('one reader a format', () => {
  it.each([
    ['js', 'jest-verbose.log', JEST_READER],
    ['js', 'vitest-verbose.log', VITEST_READER],
    ['js', 'mocha-spec-clean.log', MOCHA_READER],
    ['node-spec', 'node-test-spec-calc.log', NODE_SPEC_READER],
    ['tap', 'node-test-default.log', 'TAP (node --test)'],
    ['junit', 'junit5-console-cat.log', 'JUnit XML'],
    ['cargo', 'no-fail-fast.log', 'cargo test'],
    ['go', 'json-mixed.log', 'go test -json'],
  ])('%s/%s is claimed by %s alone', (format, name, reader) => {
    expect(readLog(fixtureLog(format, name))?.reader).toBe(reader);
  });
});

describe('auditing a parser of a jest, vitest or mocha log', () => {
  /** Own titles where one test has the title, the file's name and the path where two do. */
  const leaves = {
    'calc.test.js > adds': 'passed',
    subtracts: 'failed',
    'prints look-alikes': 'passed',
    'calc.test.js::math::adds again': 'passed',
    'adds deep': 'passed',
    throws: 'failed',
    'other.test.js > adds': 'passed',
    'test/other.test.js math adds again': 'failed',
  } as const;
  /** jest's "Suite > test" and fullName, and `file::describe::test`, for every test. */
  const ways: Record<string, (file: string, titles: string[]) => string> = {
    'Suite > test': (file, titles) => [file, ...titles].join(' > '),
    fullName: (file, titles) => `${file} ${titles.join(' ')}`,
    'file::describe::test': (file, titles) => [file, ...titles].join('::'),
  };

  it('accepts any naming made of the file, the describe blocks and the test, in order', () => {
    for (const name of ['jest-verbose.log', 'vitest-verbose.log']) {
      expect(auditParser(leaves, readLog(js(name))).status).toBe('agrees');
      expect(auditParser(JEST_OR_VITEST, readLog(js(name))).status).toBe('agrees');
      for (const [way, write] of Object.entries(ways)) {
        const named = Object.fromEntries(Object.entries(JEST_OR_VITEST).map(([id, outcome]) => {
          const [file, ...titles] = id.split(' > ');
          return [write(file!.replace('test/', ''), titles), outcome];
        }));
        expect(auditParser(named, readLog(js(name))).status, way).toBe('agrees');
      }
    }
  });

  it('refuses a parser that invents a failure, drops a test, or names a test two files have by its title alone', () => {
    const reading = readLog(js('jest-verbose.log'));
    expect(auditParser({ ...leaves, 'adds deep': 'failed' }, reading)).toMatchObject({ disagreements: [{ test: 'adds deep', parser: 'failed', log: 'passed' }] });
    const { throws: _dropped, ...dropped } = leaves;
    expect(auditParser(dropped, reading)).toMatchObject({ disagreements: [{ test: 'test/calc.test.js > math > nested > throws', parser: 'missing', log: 'failed' }] });
    // SWE-smith's jest parser: the test's own title, the last line with that title winning.
    const { 'calc.test.js > adds': _a, 'other.test.js > adds': _b, ...rest } = leaves;
    expect(auditParser({ ...rest, adds: 'passed' }, reading)).toMatchObject({
      disagreements: [{ test: 'adds', log: 'several', candidates: ['test/calc.test.js > adds', 'test/other.test.js > adds'] }],
    });
  });
});

describe('auditing a parser of a mocha or node spec log', () => {
  it('accepts own titles and refuses an invented failure or a dropped test', () => {
    const mocha = readLog(js('mocha-spec-clean.log'));
    const titles = { adds: 'passed', subtracts: 'failed', 'adds again': 'failed', 'adds deep': 'passed', throws: 'failed' } as const;
    expect(auditParser(titles, mocha)).toEqual({ status: 'agrees', reader: MOCHA_READER });
    expect(auditParser({ ...titles, 'adds deep': 'failed' }, mocha)).toMatchObject({ disagreements: [{ test: 'adds deep', parser: 'failed', log: 'passed' }] });
    const nodeSpec = readLog(spec('node-test-spec-calc.log'));
    const leaves = { adds: 'passed', subtracts: 'failed', 'adds again': 'passed', 'adds deep': 'passed', throws: 'failed', 'sub ok': 'passed', 'sub fails': 'failed' } as const;
    expect(auditParser(leaves, nodeSpec)).toEqual({ status: 'agrees', reader: NODE_SPEC_READER });
    const { 'sub fails': _dropped, ...dropped } = leaves;
    expect(auditParser(dropped, nodeSpec)).toMatchObject({ disagreements: [{ test: 'with subtests > sub fails', parser: 'missing', log: 'failed' }] });
  });
});
