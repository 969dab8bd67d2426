import { describe, expect, it } from 'vitest';
import { GO_JSON_READER, GO_VERBOSE_READER } from '../../../src/bugs/log-readers/go-test.js';
import { readLog } from '../../../src/bugs/log-readers/index.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces, resolveNames } from './log-reader-fixtures.js';

const log = (name: string) => fixtureLog('go', name);
const M = 'example.com/rd';

/** What ./calc ./text ./boom ./broken ./nofiles ./printer give under go 1.19 (see test/fixtures/logs/go). */
const MIXED = {
  [`${M}/calc/TestAdd`]: 'passed',
  [`${M}/calc/TestSub`]: 'failed',
  [`${M}/calc/TestTable`]: 'failed',
  [`${M}/calc/TestTable/small`]: 'passed',
  [`${M}/calc/TestTable/with_space`]: 'failed',
  [`${M}/calc/TestTable/zero`]: 'passed',
  [`${M}/calc/TestNested`]: 'passed',
  [`${M}/calc/TestNested/outer`]: 'passed',
  [`${M}/calc/TestNested/outer/inner_ok`]: 'passed',
  [`${M}/calc/TestParallel`]: 'failed',
  [`${M}/calc/TestParallel/p1`]: 'passed',
  [`${M}/calc/TestParallel/p2`]: 'failed',
  [`${M}/text/TestUpper`]: 'passed',
  [`${M}/text/TestAdd`]: 'passed',
  [`${M}/boom/TestFirst`]: 'passed',
  [`${M}/boom/TestPanics`]: 'failed',
  [`${M}/printer/TestBefore`]: 'passed',
  [`${M}/printer/TestPrintsLookAlikes`]: 'passed',
} as const;

const TWO_PACKAGES = {
  [`${M}/slowa/TestOne`]: 'passed',
  [`${M}/slowa/TestTwo`]: 'passed',
  [`${M}/slowa/TestThree`]: 'passed',
  [`${M}/slowa/TestThree/deep`]: 'passed',
  [`${M}/slowb/TestOne`]: 'passed',
  [`${M}/slowb/TestTwo`]: 'failed',
  [`${M}/slowb/TestThree`]: 'passed',
  [`${M}/slowb/TestThree/deep`]: 'passed',
} as const;

describe('the go test reader', () => {
  it.each([
    ['json-mixed.log', GO_JSON_READER],
    ['v-mixed.log', GO_VERBOSE_READER],
  ])('reads every result of %s: subtests, skips left out, a panic, a package that does not build, look-alike lines printed by a test', (name, reader) => {
    const reading = readLog(log(name));
    expect(reading?.reader).toBe(reader);
    expect(reading?.results).toEqual(MIXED);
    expect(reading?.optional).toBeUndefined();
    const names = ['TestTable/with_space', `${M}/calc.TestTable/with_space`, `${M}/calc::TestTable/with_space`, 'calc.TestTable.with_space'];
    expect(Object.values(resolveNames(reading, names))).toEqual(names.map(() => `${M}/calc/TestTable/with_space`));
  });

  it('reads packages whose -json events interleave, and packages one after another in -v', () => {
    expect(readLog(log('json-interleaved.log'))).toMatchObject({ reader: GO_JSON_READER, results: TWO_PACKAGES });
    expect(readLog(log('v-two-packages.log'))).toMatchObject({ reader: GO_VERBOSE_READER, results: TWO_PACKAGES });
    expect(readLog(log('json-p4.log'))?.results?.[`${M}/printer/TestPrintsLookAlikes`]).toBe('passed');
  });

  it.each(['json-mixed.log', 'v-mixed.log', 'json-interleaved.log'])('reads %s the same in pieces of any size', (name) => {
    const whole = readLog(log(name));
    for (const size of [1, 7, 64, 4096]) expect(readInPieces(log(name), size)).toEqual(whole);
  });

  it('reads each run of -count=N, a failure in any of them counting', () => {
    const text = log('v-count2.log');
    expect(readLog(text)?.results).toEqual({ [`${M}/text/TestUpper`]: 'passed', [`${M}/text/TestAdd`]: 'passed' });
    const firstFails = text.replace('--- PASS: TestUpper', '--- FAIL: TestUpper').replace('ok  \texample.com/rd/text', 'FAIL\texample.com/rd/text');
    expect(readLog(firstFails)?.results?.[`${M}/text/TestUpper`]).toBe('failed');
  });

  it('does not trust a test that prints a result line for itself (in -v, and in -json before Go 1.20)', () => {
    for (const name of ['v-liar.log', 'json-liar.log']) expect(readLog(log(name))?.why).toMatch(/test TestLies has two results/);
  });

  it('does not read go test without -v', () => {
    expect(readLog(log('no-v.log'))).toEqual({ reader: GO_VERBOSE_READER, why: expect.stringMatching(/package example.com\/rd\/calc lists no test it ran \(run go test with -v or -json/) });
  });

  it('does not read result lines with no run line and no package line, and an empty parser does not agree with them', () => {
    // What a compiled test binary prints without -test.v: the failures, then FAIL, no package line.
    const fragment = '--- FAIL: TestSub (0.00s)\n    calc_test.go:13: Sub(5, 3) = 3, want 2\n--- PASS: TestAdd (0.00s)\nFAIL\n';
    expect(readLog(fragment)).toEqual({ reader: GO_VERBOSE_READER, why: expect.stringMatching(/^2 result line\(s\) \("--- PASS: …"\) with no "=== RUN" line and no line closing their package/) });
    expect(auditParser({}, readLog(fragment))).toMatchObject({ status: 'unverified', reader: GO_VERBOSE_READER });
    expect(auditParser({ TestSub: 'failed', TestAdd: 'passed' }, readLog(fragment)).status).toBe('unverified');
  });

  it('does not read a run cut short', () => {
    expect(readLog(cutBefore(log('v-mixed.log'), 'FAIL\texample.com/rd/calc'))?.why).toMatch(/the last package never finished/);
    expect(readLog(cutBefore(log('json-interleaved.log'), '"Action":"fail","Package":"example.com/rd/slowb","Elapsed"'))?.why).toMatch(/package example.com\/rd\/slowb never finished/);
  });

  it('does not read a package that says ok while a test failed or never finished', () => {
    const text = log('v-two-packages.log');
    expect(readLog(text.replace('FAIL\texample.com/rd/slowb\t', 'ok  \texample.com/rd/slowb\t'))?.why).toMatch(/package example.com\/rd\/slowb says ok but its test TestTwo failed/);
    expect(readLog(text.replace('--- PASS: TestTwo (0.15s)\n', ''))?.why).toMatch(/package example.com\/rd\/slowa says ok but its test TestTwo never finished/);
  });

  it('counts a test still running when its package fails as an optional failure', () => {
    const text = log('v-mixed.log').replace('--- FAIL: TestPanics (0.00s)\n', '');
    const reading = readLog(text);
    expect(reading?.optional).toEqual({ [`${M}/boom/TestPanics`]: 'failed' });
    expect(reading?.results?.[`${M}/boom/TestPanics`]).toBeUndefined();
  });

  it('does not claim a log in another format', () => {
    expect(readLog(fixtureLog('cargo', 'no-fail-fast.log'))?.reader).toBe('cargo test');
    expect(readLog('PASS\nok 1 - a\n')).toBeUndefined();
  });
});

describe('auditing a parser of a go log', () => {
  const reading = readLog(log('json-mixed.log'));
  /** What a parser in SWE-smith's style gives: bare test names. */
  const honest = Object.fromEntries(Object.entries(MIXED).map(([id, outcome]) => [id.replace(/^example\.com\/rd\/[a-z]+\//, ''), outcome])) as Record<string, 'passed' | 'failed'>;

  /** Each test named `<package><sep><test>`. */
  const joined = (sep: string, pkg: (p: string) => string = (p) => p) =>
    Object.fromEntries(Object.entries(MIXED).map(([id, outcome]) => {
      const [, p, test] = /^(example\.com\/rd\/[a-z]+)\/(.*)$/.exec(id)!;
      return [`${pkg(p!)}${sep}${test}`, outcome];
    })) as Record<string, 'passed' | 'failed'>;

  it('accepts any naming made of the package and the test, in order', () => {
    expect(auditParser(MIXED, reading)).toEqual({ status: 'agrees', reader: GO_JSON_READER });
    for (const sep of ['::', '.', '/', ' ', '#']) expect(auditParser(joined(sep), reading).status, sep).toBe('agrees');
    expect(auditParser(joined('.', (p) => p.split('/').pop()!), reading).status).toBe('agrees');
    expect(auditParser(joined('::', (p) => p.replace('example.com/', '')), reading).status).toBe('agrees');
  });

  it('accepts bare test names where one test has the name, and refuses a name two packages share, whatever it says', () => {
    const { TestAdd: _shared, ...unique } = honest;
    const both = { [`calc.TestAdd`]: 'passed', [`text.TestAdd`]: 'passed' } as const;
    expect(auditParser({ ...unique, ...both }, reading)).toEqual({ status: 'agrees', reader: GO_JSON_READER });
    expect(auditParser(honest, reading)).toEqual({
      status: 'disagrees',
      reader: GO_JSON_READER,
      disagreements: [{ test: 'TestAdd', parser: 'passed', log: 'several', candidates: [`${M}/calc/TestAdd`, `${M}/text/TestAdd`] }],
    });
  });

  it('refuses a test named twice, and a name the log has no test for', () => {
    expect(auditParser({ ...MIXED, [`${M}/calc.TestSub`]: 'failed' }, reading)).toMatchObject({
      disagreements: [{ test: `${M}/calc.TestSub`, twice: { test: `${M}/calc/TestSub`, also: `${M}/calc/TestSub` } }],
    });
    // The components out of order, or a subtest without its test.
    expect(auditParser({ ...MIXED, 'TestTable.calc': 'failed' }, reading)).toMatchObject({ disagreements: [{ test: 'TestTable.calc', log: 'missing' }] });
    expect(auditParser({ ...MIXED, 'calc::with_space': 'failed' }, reading)).toMatchObject({ disagreements: [{ test: 'calc::with_space', log: 'missing' }] });
  });

  it('refuses a parser that invents a failure or drops a test', () => {
    expect(auditParser({ ...joined('::'), [`${M}/text::TestUpper`]: 'failed' }, reading)).toMatchObject({ status: 'disagrees', disagreements: [{ test: `${M}/text::TestUpper`, parser: 'failed', log: 'passed' }] });
    expect(auditParser({ ...honest, TestUpper: 'failed' }, reading)).toMatchObject({ status: 'disagrees', disagreements: [{ test: 'TestAdd' }, { test: 'TestUpper', parser: 'failed', log: 'passed' }] });
    expect(auditParser({ ...MIXED, TestGhost: 'failed' }, reading)).toMatchObject({ disagreements: [{ test: 'TestGhost', parser: 'failed', log: 'missing' }] });
    const { 'calc.TestTable/with_space': _dropped, ...dropped } = joined('.', (p) => p.split('/').pop()!);
    expect(auditParser(dropped, reading)).toMatchObject({ disagreements: [{ test: `${M}/calc/TestTable/with_space`, parser: 'missing', log: 'failed' }] });
    // A skipped test is not a result.
    expect(auditParser({ ...MIXED, TestSkipped: 'passed' }, reading)).toMatchObject({ disagreements: [{ test: 'TestSkipped', log: 'missing' }] });
  });
});
