import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinReadings, readLog } from '../../../src/bugs/log-readers/index.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { PACKAGE_ROOT } from '../../../src/paths.js';
import { fixtureLog } from './log-reader-fixtures.js';

const pytestLog = readFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'logs', 'pytest-rA-mixed.log'), 'utf8');
const goLog = fixtureLog('go', 'v-two-packages.log');

describe('a log that two readers claim', () => {
  it('is read as the sum of both readings, named after both readers', () => {
    const reading = readLog(`${goLog}${pytestLog}`);
    expect(reading?.reader).toBe('pytest -rA + go test -v');
    expect(reading?.results).toMatchObject({ 'test_mix.py::test_fail': 'failed', 'example.com/rd/slowb/TestTwo': 'failed' });
    expect(Object.keys(reading?.results ?? {})).toHaveLength(12 + 8);
  });

  it('holds the parser to both parts: leaving out the tests of one runner is a disagreement', () => {
    const reading = readLog(`${goLog}${pytestLog}`);
    const goOnly = readLog(goLog)!.results as Record<string, 'passed' | 'failed'>;
    const audit = auditParser(goOnly, reading);
    expect(audit.status).toBe('disagrees');
    expect(audit.status === 'disagrees' && audit.disagreements.every((d) => d.test.startsWith('test_mix.py') && d.parser === 'missing')).toBe(true);
  });

  it('is unread as a whole when either part cannot be read, with that reader’s reason', () => {
    expect(readLog(`${fixtureLog('go', 'no-v.log')}${pytestLog}`)).toEqual({
      reader: 'pytest -rA + go test -v',
      why: expect.stringMatching(/^go test -v: package example.com\/rd\/calc lists no test it ran/),
    });
  });

  it('merges ids, optional entries and the parts of names', () => {
    const parts = { x: [{ forms: ['x'] }] };
    expect(
      joinReadings([
        { reader: 'a', results: { x: 'passed' }, optional: { g: 'passed' }, parts },
        { reader: 'b', results: { x: 'failed', g: 'passed' } },
      ]),
    ).toEqual({ reader: 'a + b', results: { x: 'failed', g: 'passed' }, optional: {}, parts });
  });
});

describe('the audit with names several tests share', () => {
  const reading = readLog(goLog);

  it('refuses a name two tests share, whatever it says: the parser cannot tell which one it reports', () => {
    const named = (pkg: string) => ({ [`${pkg}/TestOne`]: 'passed', [`${pkg}::TestThree`]: 'passed', [`${pkg}.TestThree/deep`]: 'passed' }) as const;
    const both = { ...named('slowa'), ...named('slowb') };
    const two = ['example.com/rd/slowa/TestTwo', 'example.com/rd/slowb/TestTwo'];
    for (const said of ['failed', 'passed'] as const) {
      expect(auditParser({ ...both, TestTwo: said }, reading)).toEqual({
        status: 'disagrees',
        reader: 'go test -v',
        disagreements: [{ test: 'TestTwo', parser: said, log: 'several', candidates: two }],
      });
    }
    expect(auditParser({ ...both, 'slowa/TestTwo': 'passed', 'slowb.TestTwo': 'failed' }, reading).status).toBe('agrees');
  });

  it('lets optional entries be left out but not contradicted', () => {
    const optional = { reader: 'r', results: { t: 'passed' }, optional: { g: 'failed' } } as const;
    expect(auditParser({ t: 'passed' }, optional).status).toBe('agrees');
    expect(auditParser({ t: 'passed', g: 'failed' }, optional).status).toBe('agrees');
    expect(auditParser({ t: 'passed', g: 'passed' }, optional)).toMatchObject({ disagreements: [{ test: 'g', parser: 'passed', log: 'failed' }] });
  });
});
