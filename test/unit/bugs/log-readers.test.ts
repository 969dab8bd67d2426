import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogReaders, PYTEST_READER, readLog } from '../../../src/bugs/log-readers/index.js';
import { LineSplitter, MAX_LINE_CHARS } from '../../../src/bugs/log-readers/lines.js';
import { parseCounts, resultId } from '../../../src/bugs/log-readers/pytest-summary.js';
import { PYTEST_VERBOSE_READER } from '../../../src/bugs/log-readers/pytest-verbose.js';
import { PACKAGE_ROOT } from '../../../src/paths.js';

const log = (name: string) => readFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'logs', name), 'utf8');

/** What test_mix.py gives under pytest 7.2 (see test/fixtures/logs). */
const MIXED = {
  'test_mix.py::TestK::test_m': 'passed',
  'test_mix.py::test_fail': 'failed',
  'test_mix.py::test_param[a b]': 'passed',
  'test_mix.py::test_param[c - d]': 'failed',
  'test_mix.py::test_param[e]f]': 'passed',
  'test_mix.py::test_param[g::h]': 'passed',
  'test_mix.py::test_pass': 'passed',
  'test_mix.py::test_setup_error': 'failed',
  'test_mix.py::test_teardown_error': 'failed',
  'test_mix.py::test_xfail': 'xfailed',
  'test_mix.py::test_xpass': 'passed',
  'test_mix.py::test_xpass_strict': 'failed',
};

describe('the pytest -rA reader', () => {
  it.each(['pytest-rA-mixed.log', 'pytest-q-rA-mixed.log', 'pytest-rA-color.log'])('reads every result of %s', (name) => {
    expect(readLog(log(name))).toMatchObject({ reader: PYTEST_READER, results: MIXED });
    expect(readLog(log(name))?.why).toBeUndefined();
  });

  it('ignores what a test prints, even a fake summary', () => {
    expect(readLog(log('pytest-rA-fake-summary.log'))?.results).toEqual({ 'test_fake.py::test_prints_a_fake_summary': 'passed', 'test_fake.py::test_other': 'passed' });
  });

  it('reads a collection error as the failure of its file, and a session without tests as empty', () => {
    expect(readLog(log('pytest-rA-collection-error.log'))?.results).toEqual({ 'test_collect_err.py': 'failed' });
    expect(readLog(log('pytest-rA-no-tests.log'))).toEqual({ reader: PYTEST_READER, results: {} });
  });

  it('reads a run without -rA by its verbose lines (pytest-verbose.ts), and one with neither -rA nor -v not at all, saying why', () => {
    expect(readLog(log('pytest-verbose.log'))).toMatchObject({ reader: PYTEST_VERBOSE_READER, results: MIXED });
    expect(readLog(log('pytest-verbose.log'))?.why).toBeUndefined();
    const dots = log('pytest-verbose.log').replace(/^test_mix\.py::.*\n/gm, '');
    expect(readLog(dots)?.why).toMatch(/lists 0 passed test\(s\) where pytest counted 6 \(run pytest with -rA/);
  });

  it('cannot read a session cut short', () => {
    const text = log('pytest-rA-mixed.log');
    const cut = text.slice(0, text.indexOf('PASSED test_mix.py::test_param'));
    expect(readLog(cut)?.why).toMatch(/did not finish/);
  });

  it('cannot read a summary with a stray line or counts that do not add up', () => {
    const text = log('pytest-rA-mixed.log');
    expect(readLog(text.replace('PASSED test_mix.py::TestK::test_m\n', 'PASSED test_mix.py::TestK::test_m\nsomething else\n'))?.why).toMatch(/unexpected line/);
    expect(readLog(text.replace('PASSED test_mix.py::TestK::test_m\n', ''))?.why).toMatch(/lists 5 passed test\(s\) where pytest counted 6/);
  });

  it('refuses a test that passes in one session and fails in another', () => {
    const session = (word: string, n: string) => `=== short test summary info ===\n${word} t.py::test_a\n=== 1 ${n} in 0.01s ===\n`;
    expect(readLog(session('PASSED', 'passed') + session('PASSED', 'passed'))?.results).toEqual({ 't.py::test_a': 'passed' });
    expect(readLog(session('PASSED', 'passed') + session('FAILED', 'failed'))?.why).toMatch(/passed in one pytest session and failed in another/);
  });

  it('does not claim a log in another format', () => {
    expect(readLog('ok 1 - addition\nok 2 - subtraction\n1..2\n')).toBeUndefined();
    expect(readLog('')).toBeUndefined();
  });

  it('reads a log that arrives in pieces, split anywhere', () => {
    const text = log('pytest-rA-mixed.log');
    const readers = new LogReaders();
    for (let i = 0; i < text.length; i += 7) readers.push(text.slice(i, i + 7));
    expect(readers.finish()?.results).toEqual(MIXED);
  });
});

describe('result lines', () => {
  it.each([
    ['PASSED', 'tests/t.py::test_a[x - y]', 'tests/t.py::test_a[x - y]'],
    ['FAILED', 'tests/t.py::test_a - AssertionError: a - b', 'tests/t.py::test_a'],
    ['FAILED', 'tests/t.py::test_a[c - d] - AssertionError', 'tests/t.py::test_a[c - d]'],
    ['FAILED', 'tests/t.py::test_a[e]f]', 'tests/t.py::test_a[e]f]'],
    ['XPASS', 'tests/t.py::test_a known to fail', 'tests/t.py::test_a'],
    ['ERROR', 'tests/t.py - ModuleNotFoundError: x', 'tests/t.py'],
  ])('%s %s → %s', (word, rest, id) => {
    expect(resultId(word, rest)).toBe(id);
  });

  it('reads the counts line', () => {
    expect(parseCounts('3 failed, 6 passed, 1 skipped, 1 xfailed, 1 xpassed, 2 errors')).toEqual({ passed: 6, failed: 3, errors: 2, xfailed: 1, xpassed: 1 });
    expect(parseCounts('1 error')).toMatchObject({ errors: 1 });
  });
});

describe('LineSplitter', () => {
  it('joins pieces into lines, drops colour codes and carriage returns, and cuts long lines', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((l) => lines.push(l), 20);
    splitter.push('ab');
    splitter.push('c\r\n\x1b[32mPASSED\x1b[0m x\n0123456789abcdef');
    splitter.push('ghijklmnopqrstuvwxyz\nlast');
    splitter.end();
    expect(lines).toEqual(['abc', 'PASSED x', '0123456789abcdefghij', 'last']);
  });

  it('holds at most one line however long the text', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((l) => lines.push(l));
    const chunk = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 20; i++) splitter.push(chunk);
    splitter.push('\nend\n');
    expect(lines.map((l) => l.length)).toEqual([MAX_LINE_CHARS, 3]);
  });
});
