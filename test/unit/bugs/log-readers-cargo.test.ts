import { describe, expect, it } from 'vitest';
import { CARGO_READER, cargoTarget } from '../../../src/bugs/log-readers/cargo-test.js';
import { readLog } from '../../../src/bugs/log-readers/index.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces, resolveNames } from './log-reader-fixtures.js';

const log = (name: string) => fixtureLog('cargo', name);

/** What the calc crate gives under `cargo test --no-fail-fast` (see test/fixtures/logs/cargo). */
const CALC = {
  'calc/src/lib.rs::tests::adds': 'passed',
  'calc/src/lib.rs::tests::nested::deep': 'passed',
  'calc/src/lib.rs::tests::panics_as_expected': 'passed',
  'calc/src/lib.rs::tests::prints_look_alikes': 'passed',
  'calc/src/lib.rs::tests::subs': 'failed',
  'calc/src/main.rs::tests::adds': 'passed',
  'integration/tests/integration.rs::adds': 'passed',
  'integration/tests/integration.rs::index_panics': 'failed',
  'calc/doc-tests::src/lib.rs - add (line 5)': 'passed',
  'calc/doc-tests::src/lib.rs - sub (line 14)': 'failed',
} as const;

describe('the cargo test reader', () => {
  it('reads every target: unit tests of the library and the binary, an integration test, doc-tests; ignored tests left out', () => {
    const reading = readLog(log('no-fail-fast.log'));
    expect(reading).toMatchObject({ reader: CARGO_READER, results: CALC });
    const panics = 'calc/src/lib.rs::tests::panics_as_expected';
    expect(resolveNames(reading, ['tests::panics_as_expected', 'calc::tests::panics_as_expected', 'tests::panics_as_expected - should panic', 'calc.tests.panics_as_expected'])).toEqual({
      'tests::panics_as_expected': panics,
      'calc::tests::panics_as_expected': panics,
      'tests::panics_as_expected - should panic': panics,
      'calc.tests.panics_as_expected': panics,
    });
    expect(resolveNames(reading, ['adds', 'integration::adds'])).toEqual({ adds: 'integration/tests/integration.rs::adds', 'integration::adds': 'integration/tests/integration.rs::adds' });
  });

  it('reads what ran when cargo stops at the first failing target', () => {
    expect(readLog(log('fail-fast.log'))?.results).toEqual(Object.fromEntries(Object.entries(CALC).filter(([id]) => id.startsWith('calc/src/lib.rs'))));
  });

  it('keeps apart the same name in two workspace members', () => {
    expect(readLog(log('workspace.log'))?.results).toEqual({ 'alpha/src/lib.rs::tests::it_works': 'passed', 'beta_crate/src/lib.rs::tests::it_works': 'passed' });
  });

  it('reads a build that failed as no tests', () => {
    expect(readLog(log('build-error.log'))).toEqual({ reader: CARGO_READER, results: {} });
  });

  it('reads the log the same in pieces of any size', () => {
    for (const size of [1, 5, 333]) expect(readInPieces(log('no-fail-fast.log'), size)).toEqual(readLog(log('no-fail-fast.log')));
  });

  it('does not read output mangled by --nocapture, where a test printed a fake summary', () => {
    expect(readLog(log('nocapture.log'))?.why).toMatch(/the tests of calc \(src\/lib.rs\) show .* where libtest counted 9, 0, 0 of 6 \(run them without --nocapture or --quiet/);
  });

  it('does not read a run cut short, or results that do not add up', () => {
    const text = log('no-fail-fast.log');
    expect(readLog(cutBefore(text, 'test result: FAILED. 1 passed; 1 failed'))?.why).toMatch(/the test run of integration \(tests\/integration.rs\) did not finish/);
    expect(readLog(text.replace('test tests::adds ... ok\n', ''))?.why).toMatch(/show 3 passed, 1 failed, 1 ignored where libtest counted 4, 1, 1 of 6/);
    expect(readLog(text.replace('failures:\n    index_panics\n', 'test index_panics ... ok\n'))?.why).toMatch(/test index_panics of integration .* has two results/);
    expect(readLog(`${text}\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n`)?.why).toMatch(/outside any test run/);
  });

  it('names targets from the "Running" lines of cargo, old and new', () => {
    expect(cargoTarget('unittests src/lib.rs (target/debug/deps/calc-c6626fb655a8d231)')).toEqual({ binary: 'calc', source: 'src/lib.rs' });
    expect(cargoTarget('tests/it.rs (target/debug/deps/it-438068a563b1c20a)')).toEqual({ binary: 'it', source: 'tests/it.rs' });
    expect(cargoTarget('unittests (target/debug/deps/calc-c6626fb655a8d231)')).toEqual({ binary: 'calc' });
    expect(cargoTarget('target/debug/deps/calc-c6626fb655a8d231')).toEqual({ binary: 'calc' });
  });
});

describe('auditing a parser of a cargo log', () => {
  const reading = readLog(log('no-fail-fast.log'));
  /** SWE-smith's way: the name before " ... ", target dropped; where two binaries have the name, the binary kept. */
  const bare = {
    'calc::src/lib.rs::tests::adds': 'passed',
    'src/main.rs::tests::adds': 'passed',
    'tests::nested::deep': 'passed',
    'tests::panics_as_expected - should panic': 'passed',
    'tests::prints_look_alikes': 'passed',
    'tests::subs': 'failed',
    adds: 'passed',
    index_panics: 'failed',
    'src/lib.rs - add (line 5)': 'passed',
    'src/lib.rs - sub (line 14)': 'failed',
  } as const;

  it('accepts bare names, and ids with their target', () => {
    expect(auditParser(bare, reading)).toEqual({ status: 'agrees', reader: CARGO_READER });
    expect(auditParser(CALC, reading).status).toBe('agrees');
  });

  it('refuses a bare name two binaries share, whatever it says', () => {
    const { 'calc::src/lib.rs::tests::adds': _lib, 'src/main.rs::tests::adds': _main, ...rest } = bare;
    expect(auditParser({ ...rest, 'tests::adds': 'passed' }, reading)).toMatchObject({
      disagreements: [{ test: 'tests::adds', log: 'several', candidates: ['calc/src/lib.rs::tests::adds', 'calc/src/main.rs::tests::adds'] }],
    });
  });

  it('refuses a parser that invents a failure or drops a test', () => {
    expect(auditParser({ ...bare, adds: 'failed' }, reading)).toMatchObject({ disagreements: [{ test: 'adds', parser: 'failed', log: 'passed' }] });
    const { index_panics: _dropped, ...dropped } = bare;
    expect(auditParser(dropped, reading)).toMatchObject({ disagreements: [{ test: 'integration/tests/integration.rs::index_panics', parser: 'missing', log: 'failed' }] });
    expect(auditParser({ ...bare, 'tests::slow': 'passed' }, reading)).toMatchObject({ disagreements: [{ test: 'tests::slow', log: 'missing' }] });
  });
});
