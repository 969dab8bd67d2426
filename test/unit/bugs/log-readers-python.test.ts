import { describe, expect, it } from 'vitest';
import { PYTEST_READER, readLog } from '../../../src/bugs/log-readers/index.js';
import { PYTEST_VERBOSE_READER, verboseResult } from '../../../src/bugs/log-readers/pytest-verbose.js';
import { UNITTEST_READER } from '../../../src/bugs/log-readers/unittest.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces, resolveNames } from './log-reader-fixtures.js';

const py = (name: string) => fixtureLog('python', name);

/** What src/test_mix.py and src/test_more.py give (see test/fixtures/logs/python). */
const PYTEST = {
  'test_mix.py::test_pass': 'passed',
  'test_mix.py::test_fail': 'failed',
  'test_mix.py::test_xfail': 'xfailed',
  'test_mix.py::test_xpass': 'passed',
  'test_mix.py::test_xpass_strict': 'failed',
  'test_mix.py::test_setup_error': 'failed',
  'test_mix.py::test_teardown_error': 'failed',
  'test_mix.py::test_param[a b]': 'passed',
  'test_mix.py::test_param[c - d]': 'failed',
  'test_mix.py::test_param[e]f]': 'passed',
  'test_mix.py::test_param[g::h]': 'passed',
  'test_mix.py::test_prints_look_alikes': 'passed',
  'test_mix.py::TestK::test_m': 'passed',
  'test_more.py::test_pairs[one two]': 'passed',
  'test_more.py::test_pairs[three [3]]': 'failed',
  'test_more.py::TestNested::TestInner::test_deep': 'passed',
} as const;

describe('the pytest verbose reader', () => {
  it.each(['pytest7-v.log', 'pytest7-vv-rA.log', 'pytest8-v.log', 'pytest8-vv.log', 'pytest8-xdist-v.log', 'pytest8-xdist-v-rA.log'])(
    'reads every result of %s, skips left out, a teardown error a failure',
    (name) => {
      expect(readLog(py(name))).toMatchObject({ reader: PYTEST_VERBOSE_READER, results: PYTEST });
      expect(readLog(py(name))?.results).toEqual(PYTEST);
      for (const size of [1, 13, 700]) expect(readInPieces(py(name), size)).toEqual(readLog(py(name)));
    },
  );

  it('reads pytest 3.3 as SWE-bench ran it ("in 1.55 seconds")', () => {
    const reading = readLog(py('swebench-pytest33-v.log'));
    expect(reading?.reader).toBe(PYTEST_VERBOSE_READER);
    expect(Object.keys(reading?.results ?? {})).toHaveLength(56);
    expect(reading?.results?.['astropy/wcs/tests/test_wcs.py::TestMaps::test_maps']).toBe('passed');
  });

  it('takes the -rA summary when both can read a log, and refuses one where they disagree', () => {
    const both = 'test_a.py::test_x PASSED [ 50%]\ntest_a.py::test_y FAILED [100%]\n';
    const summary = '=== short test summary info ===\nPASSED test_a.py::test_x\nFAILED test_a.py::test_y\n==== 1 failed, 1 passed in 0.1s ====\n';
    const session = `=== test session starts ===\n${both}\n${summary}`;
    expect(readLog(session)).toMatchObject({ reader: PYTEST_READER, results: { 'test_a.py::test_x': 'passed', 'test_a.py::test_y': 'failed' } });
    const swapped = session.replace('PASSED test_a.py::test_x\nFAILED test_a.py::test_y\n', 'FAILED test_a.py::test_x\nPASSED test_a.py::test_y\n');
    expect(readLog(swapped)).toEqual({ reader: PYTEST_READER, why: 'the short test summary says FAILED for test_a.py::test_x, which the verbose lines show passed' });
  });

  it('refuses a log cut short, a line missing, a result line broken by printed text, a summary naming a test the lines do not show', () => {
    expect(readLog(cutBefore(py('pytest8-v.log'), '==== 4 failed'))?.why).toMatch(/did not finish/);
    expect(readLog(cutBefore(py('pytest8-v.log'), 'test_more.py::test_pairs[three [3]] FAILED'))?.why).toMatch(/did not finish/);
    expect(readLog(py('pytest8-v.log').replace(/^test_mix\.py::TestK::test_m PASSED.*\n/m, ''))?.why).toMatch(/the verbose lines show 8 passed where pytest counted 9/);
    expect(readLog(py('pytest7-v-s.log'))?.why).toMatch(/names test_more\.py::test_pairs\[three \[3\]\], which no verbose line shows/);
  });

  it('reads a file that failed to collect from the short summary', () => {
    const log = '=== test session starts ===\ncollected 1 item / 1 error\n\nt.py::test_a PASSED [100%]\n=== short test summary info ===\nERROR broken.py - ImportError\n=== 1 passed, 1 error in 0.1s ===\n';
    expect(readLog(log)?.results).toEqual({ 't.py::test_a': 'passed', 'broken.py': 'failed' });
  });

  it.each([
    ['t.py::test_a PASSED                [ 50%]', { word: 'PASSED', id: 't.py::test_a' }],
    ['t.py::test_p[x PASSED y] FAILED    [ 1/10]', { word: 'FAILED', id: 't.py::test_p[x PASSED y]' }],
    ['t.py::test_s SKIPPED (no (really))', { word: 'SKIPPED', id: 't.py::test_s' }],
    ['[gw3] [ 80%] XFAIL t.py::test_p[a b] ', { word: 'XFAIL', id: 't.py::test_p[a b]' }],
    ['[gw0] PASSED t.py::test_a', { word: 'PASSED', id: 't.py::test_a' }],
    ['t.py::test_a printed text PASSED', undefined],
    ['tests passed PASSED', undefined],
  ])('%s', (line, result) => {
    expect(verboseResult(line)).toEqual(result);
  });

  it('holds a parser to the verbose lines', () => {
    const reading = readLog(py('pytest8-v.log'));
    const honest = Object.fromEntries(Object.entries(PYTEST).filter(([, outcome]) => outcome !== 'xfailed')) as Record<string, 'passed' | 'failed'>;
    expect(auditParser(honest, reading)).toEqual({ status: 'agrees', reader: PYTEST_VERBOSE_READER });
    expect(auditParser({ ...honest, 'test_mix.py::test_param[a b]': 'failed' }, reading)).toMatchObject({ status: 'disagrees' });
  });
});

/** What src/pkg gives under `python -m unittest -v pkg.test_calc pkg.test_clean`. */
const UNITTEST = {
  'pkg.test_calc.CalcTest.test_adds': 'passed',
  'pkg.test_calc.CalcTest.test_documented': 'passed',
  'pkg.test_calc.CalcTest.test_documented_fails': 'failed',
  'pkg.test_calc.CalcTest.test_errors': 'failed',
  'pkg.test_calc.CalcTest.test_expected_failure': 'xfailed',
  'pkg.test_calc.CalcTest.test_subtests': 'failed',
  'pkg.test_calc.CalcTest.test_subtracts': 'failed',
  'pkg.test_calc.CalcTest.test_unexpected_success': 'failed',
  'pkg.test_calc.OtherTest.test_adds': 'passed',
  'pkg.test_clean.CleanTest.test_one': 'passed',
  'pkg.test_clean.CleanTest.test_two': 'passed',
} as const;

describe('the unittest reader', () => {
  it('reads Python 3.11’s lines: docstrings, a failing subtest, expected failures and unexpected successes; skips left out', () => {
    const reading = readLog(py('unittest-v.log'));
    expect(reading).toMatchObject({ reader: UNITTEST_READER, results: UNITTEST });
    const names = ['test_adds (pkg.test_calc.CalcTest)', 'test_adds (pkg.test_calc.CalcTest.test_adds)', 'test_calc.CalcTest.test_adds', 'CalcTest::test_adds'];
    expect(Object.values(resolveNames(reading, names))).toEqual(names.map(() => 'pkg.test_calc.CalcTest.test_adds'));
    for (const size of [1, 17, 900]) expect(readInPieces(py('unittest-v.log'), size)).toEqual(reading);
    expect(readLog(py('unittest-v-import-error.log'))?.results).toEqual({ 'pkg.test_calc.CalcTest.test_adds': 'passed', 'unittest.loader._FailedTest.test_nope': 'failed' });
  });

  it('reads Django’s runner: a test line glued to a migration line, and SWE-bench’s logs of Python before 3.11 with the set-up between name and status', () => {
    expect(readLog(py('django-v2.log'))).toMatchObject({
      reader: UNITTEST_READER,
      results: {
        'shop.tests.test_prices.StockTests.test_broken': 'failed',
        'shop.tests.test_prices.StockTests.test_empty': 'passed',
        'shop.tests.test_prices.PriceTests.test_discount': 'failed',
        'shop.tests.test_prices.PriceTests.test_rounding': 'passed',
        'shop.tests.test_prices.PriceTests.test_total': 'passed',
      },
    });
    const swebench = readLog(py('swebench-django-formsets.log'));
    const results = Object.entries(swebench?.results ?? {});
    expect(results).toHaveLength(157);
    expect(results.filter(([, outcome]) => outcome === 'failed').map(([id]) => id)).toHaveLength(2);
    expect(swebench?.results?.['forms_tests.tests.test_formsets.FormsFormsetTestCase.test_absolute_max']).toBe('passed');
    expect(resolveNames(swebench, ['test_absolute_max (forms_tests.tests.test_formsets.FormsFormsetTestCase)'])).toEqual({
      'test_absolute_max (forms_tests.tests.test_formsets.FormsFormsetTestCase)': 'forms_tests.tests.test_formsets.FormsFormsetTestCase.test_absolute_max',
    });
  });

  it('refuses a run without -v, a log cut short, a test that printed into its line, counts that do not add up', () => {
    expect(readLog(py('unittest-dots.log'))?.why).toMatch(/unittest ran 12 test\(s\) where its lines show 0 \(run it with -v/);
    expect(readLog(py('django-dots.log'))?.why).toMatch(/ran 6 test\(s\) where its lines show 0/);
    expect(readLog(py('swebench-django-cut.log'))?.why).toMatch(/"Ran 30 tests" is not followed by unittest's verdict/);
    expect(readLog(cutBefore(py('unittest-v.log'), 'Ran 12 tests'))?.why).toMatch(/did not finish/);
    expect(readLog(py('unittest-v-look-alike.log'))?.why).toMatch(/test_prints_look_alikes has no status/);
    expect(readLog(py('unittest-v.log').replace('test_adds (pkg.test_calc.OtherTest.test_adds) ... ok\n', ''))?.why).toMatch(/ran 12 test\(s\) where its lines show 11/);
    expect(readLog(py('unittest-v.log').replace('failures=3', 'failures=2'))?.why).toMatch(/counted 2 failures where its lines show 3/);
  });

  it('holds a parser to the run, whichever of unittest’s names it gives', () => {
    const reading = readLog(py('django-v2.log'));
    const honest = {
      'test_broken (shop.tests.test_prices.StockTests)': 'failed',
      'test_empty (shop.tests.test_prices.StockTests)': 'passed',
      'shop.tests.test_prices.PriceTests.test_discount': 'failed',
      'test_rounding (shop.tests.test_prices.PriceTests.test_rounding)': 'passed',
      'shop.tests.test_prices.PriceTests.test_total': 'passed',
    } as const;
    expect(auditParser(honest, reading)).toEqual({ status: 'agrees', reader: UNITTEST_READER });
    expect(auditParser({ ...honest, 'shop.tests.test_prices.PriceTests.test_total': 'failed' }, reading)).toMatchObject({ status: 'disagrees' });
  });

  it('does not claim a log without unittest’s lines', () => {
    expect(readLog('all good\nok\n')).toBeUndefined();
  });
});
