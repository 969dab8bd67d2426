import { describe, expect, it } from 'vitest';
import { readLog } from '../../../src/bugs/log-readers/index.js';
import { NODE_TAP_READER, TAP_READER } from '../../../src/bugs/log-readers/tap.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces, resolveNames } from './log-reader-fixtures.js';

const log = (name: string) => fixtureLog('tap', name);

/** What test/calc.test.js gives under node 20's runner (see test/fixtures/logs/tap). */
const CALC = {
  adds: 'passed',
  subtracts: 'failed',
  'todo one': 'xfailed',
  'math > adds again': 'passed',
  'math > nested > adds deep': 'passed',
  'math > nested > throws': 'failed',
  'with subtests > sub ok': 'passed',
  'with subtests > sub fails': 'failed',
  'with subtests': 'failed',
} as const;
const SUITES = { math: 'failed', 'math > nested': 'failed' } as const;

/** What the folder of node18-folder-tap.log gives under node 18 (see test/fixtures/logs/tap). */
const NODE18_FOLDER = {
  adds: 'passed',
  'with subtests > sub ok': 'passed',
  'with subtests > sub fails': 'failed',
  'with subtests > deeper > leaf ok': 'passed',
  'with subtests > deeper > leaf two': 'passed',
  'with subtests > deeper': 'passed',
  'with subtests': 'failed',
  'strings > upper': 'passed',
  'strings > nested > trims': 'passed',
  'strings > nested > splits': 'failed',
  'strings > todo one': 'xfailed',
  'prints > inner': 'passed',
  prints: 'passed',
  'schedules > now': 'passed',
  'schedules > later': 'passed',
  schedules: 'passed',
  'leaves a timer behind': 'passed',
  'after the timer': 'passed',
  '/w/test/timers.test.js': 'failed',
} as const;

describe('the TAP reader', () => {
  it('reads node --test (TAP by default when not a terminal) over two files: subtests, describe blocks optional, skips left out, TODO expected to fail', () => {
    expect(readLog(log('node-test-default.log'))).toMatchObject({ reader: NODE_TAP_READER, results: { ...CALC, 'prints look-alikes': 'passed' }, optional: SUITES });
    expect(readLog(log('node-test-reporter-tap.log'))).toMatchObject({ reader: NODE_TAP_READER, results: CALC, optional: SUITES });
    expect(resolveNames(readLog(log('node-test-default.log')), ['math nested throws', 'throws'])).toEqual({ 'math nested throws': 'math > nested > throws', throws: 'math > nested > throws' });
  });

  it("reads node 18's TAP over a folder of files, where the point of a file that failed as a whole repeats another's number", () => {
    const reading = readLog(log('node18-folder-tap.log'));
    expect(reading).toMatchObject({ reader: NODE_TAP_READER, results: NODE18_FOLDER, optional: { strings: 'failed', 'strings > nested': 'failed' } });
    expect(reading?.why).toBeUndefined();
    expect(readLog(log('node18-folder-default.log'))?.results).toEqual(reading?.results);
    expect(readLog(log('node18-one-file-tap.log'))?.results).toEqual(Object.fromEntries(Object.entries(NODE18_FOLDER).filter(([id]) => id === 'adds' || id.startsWith('with subtests'))));
  });

  it("holds node 18's renumbered stream to its plan and node's counts, and point numbers below the top to their plans", () => {
    const folder = log('node18-folder-tap.log');
    expect(readLog(folder.replace('# pass 15', '# pass 16'))?.why).toMatch(/node counted 21 tests and 16 passed where the TAP stream shows 21 and 15/);
    expect(readLog(folder.replace(/\n# tests 21\n/, '\n'))?.why).toMatch(/test point id 4 appears multiple times, and node's counts are missing/);
    expect(readLog(folder.replace('\n1..10\n', '\n1..9\n'))?.why).toMatch(/the TAP stream is not whole/);
    expect(readLog(folder.replace('    ok 2 - later', '    ok 1 - later'))?.why).toMatch(/not whole in the subtests of schedules: test point id 1 appears multiple times/);
  });

  it('reads a test file that fails to load as a failed test named by its path', () => {
    expect(readLog(log('node-test-file-error.log'))?.results).toEqual({ '/tmp/rd-node2/test/broken.test.js': 'failed', works: 'passed' });
  });

  it('reads TAP from other producers (tape)', () => {
    expect(readLog(log('tape-clean.log'))).toMatchObject({ reader: TAP_READER, results: { 'one and two': 'passed', zeros: 'passed', 'three minus one': 'failed', 'inner holds': 'passed' } });
  });

  it('reads the log the same in pieces of any size', () => {
    for (const size of [1, 9, 200]) expect(readInPieces(log('node-test-default.log'), size)).toEqual(readLog(log('node-test-default.log')));
  });

  it('does not read a stream where a test printed a test point, one cut short, or one whose counts do not add up', () => {
    expect(readLog(log('tape-look-alike.log'))?.why).toMatch(/the TAP stream is not whole/);
    expect(readLog(cutBefore(log('node-test-default.log'), '# Subtest: math'))?.why).toMatch(/the TAP stream is not whole: no plan/);
    expect(readLog(log('node-test-default.log').replace('# pass 6', '# pass 7'))?.why).toMatch(/node counted 12 tests and 7 passed where the TAP stream shows 12 and 6/);
    expect(readLog('TAP version 13\nok 1 - a\nBail out! database down\n')?.why).toMatch(/bailed out: database down/);
  });

  it('reads only the TAP stream, not what the script prints after it, and each of two streams', () => {
    const tap = log('node-test-reporter-tap.log');
    expect(readLog(`${tap}ok 1 - not tap any more\nnot ok 2 - still not\n`)?.results).toEqual(readLog(tap)?.results);
    expect(readLog(`${tap}${log('tape-clean.log')}`)?.results).toMatchObject({ ...CALC, 'three minus one': 'failed' });
  });

  it('does not claim a log in another format', () => {
    expect(readLog('ok 1 - addition\nok 2 - subtraction\n1..2\n')).toBeUndefined();
  });
});

describe('auditing a parser of a TAP log', () => {
  const reading = readLog(log('node-test-reporter-tap.log'));
  /** Leaf titles, as SWE-smith's node parser reads the spec reporter. */
  const leaves = { adds: 'passed', subtracts: 'failed', 'adds again': 'passed', 'adds deep': 'passed', throws: 'failed', 'sub ok': 'passed', 'sub fails': 'failed', 'with subtests': 'failed' } as const;

  it('accepts leaf titles or paths; describe blocks and TODO tests may be left out', () => {
    expect(auditParser(leaves, reading)).toEqual({ status: 'agrees', reader: NODE_TAP_READER });
    expect(auditParser({ ...CALC, 'todo one': 'passed', math: 'failed' } as Record<string, 'passed' | 'failed'>, reading).status).toBe('agrees');
  });

  it("refuses a parser that lies about a test of node 18's TAP over a folder, naming the test", () => {
    const folder = readLog(log('node18-folder-tap.log'));
    const honest = { ...NODE18_FOLDER, 'strings > todo one': 'passed' } as Record<string, 'passed' | 'failed'>;
    expect(auditParser(honest, folder)).toEqual({ status: 'agrees', reader: NODE_TAP_READER });
    expect(auditParser({ ...honest, 'schedules > later': 'failed' }, folder)).toEqual({
      status: 'disagrees',
      reader: NODE_TAP_READER,
      disagreements: [{ test: 'schedules > later', parser: 'failed', log: 'passed' }],
    });
  });

  it('refuses a parser that invents a failure or drops a test', () => {
    expect(auditParser({ ...leaves, 'adds deep': 'failed' }, reading)).toMatchObject({ disagreements: [{ test: 'adds deep', parser: 'failed', log: 'passed' }] });
    expect(auditParser({ ...leaves, math: 'passed' }, reading)).toMatchObject({ disagreements: [{ test: 'math', parser: 'passed', log: 'failed' }] });
    const { throws: _dropped, ...dropped } = leaves;
    expect(auditParser(dropped, reading)).toMatchObject({ disagreements: [{ test: 'math > nested > throws', parser: 'missing', log: 'failed' }] });
  });
});
