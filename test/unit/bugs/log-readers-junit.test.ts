import { describe, expect, it } from 'vitest';
import { readLog } from '../../../src/bugs/log-readers/index.js';
import { JUNIT_READER } from '../../../src/bugs/log-readers/junit-xml.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces, resolveNames } from './log-reader-fixtures.js';

const log = () => fixtureLog('junit', 'junit5-console-cat.log');

/** What CalcTest and OtherTest give under the JUnit 5 console launcher (see test/fixtures/logs/junit). */
const REPORT = {
  'com.example.CalcTest.subtracts()': 'failed',
  'com.example.CalcTest.positive(int)[1]': 'passed',
  'com.example.CalcTest.positive(int)[2]': 'passed',
  'com.example.CalcTest.positive(int)[3]': 'failed',
  'com.example.CalcTest.throwsError()': 'failed',
  'com.example.OtherTest.adds()': 'passed',
  'com.example.CalcTest.adds()': 'passed',
  'com.example.CalcTest.printsLookAlikes()': 'passed',
  'com.example.CalcTest$Inner.addsZero()': 'passed',
} as const;

describe('the JUnit XML reader', () => {
  it('reads the reports a script prints after the run: failures and errors fail, skipped tests are left out, printed XML stays in its CDATA', () => {
    const reading = readLog(log());
    expect(reading).toMatchObject({ reader: JUNIT_READER, results: REPORT });
    const names = ['com.example.CalcTest#adds()', 'com.example.CalcTest::adds()', 'com.example.CalcTest.adds', 'CalcTest#adds', 'CalcTest > adds()', 'example.CalcTest::adds'];
    expect(Object.values(resolveNames(reading, names))).toEqual(names.map(() => 'com.example.CalcTest.adds()'));
  });

  it('reads the log the same in pieces of any size', () => {
    for (const size of [1, 13, 1000]) expect(readInPieces(log(), size)).toEqual(readLog(log()));
  });

  it('reads a report without a prolog, several on one line, and Surefire-style suites', () => {
    const surefire = (name: string, failures: number) =>
      `<testsuite name="com.example.${name}" tests="2" failures="${failures}" errors="0" skipped="1">` +
      `<testcase name="a" classname="com.example.${name}"/><testcase name="b" classname="com.example.${name}">${failures ? '<failure message="x"/>' : ''}</testcase>` +
      `<testcase name="c" classname="com.example.${name}"><skipped/></testcase></testsuite>`;
    expect(readLog(`[INFO] build\n${surefire('A', 0).replace('tests="2"', 'tests="3"')}${surefire('B', 1).replace('tests="2"', 'tests="3"')}\ndone\n`)?.results).toEqual({
      'com.example.A.a': 'passed',
      'com.example.A.b': 'passed',
      'com.example.B.a': 'passed',
      'com.example.B.b': 'failed',
    });
  });

  it('does not read a report cut short, one that is not well-formed, or one whose counts do not add up', () => {
    expect(readLog(cutBefore(log(), '<testcase name="addsZero()"'))?.why).toMatch(/cut short/);
    expect(readLog(log().replace('<testcase name="adds()" classname="com.example.OtherTest"', '<testcase name="adds()" classname="com.example.OtherTest" <'))?.why).toMatch(/not well-formed/);
    expect(readLog(log().replace('tests="10" skipped="1" failures="2"', 'tests="10" skipped="1" failures="3"'))?.why).toMatch(/suite JUnit Jupiter counts 3 failures but lists 2/);
    expect(readLog('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "b">]>\n<testsuite name="x"></testsuite>\n')?.why).toMatch(/DOCTYPE/);
  });

  it('does not claim other XML, or a log in another format', () => {
    expect(readLog('<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>\n')).toBeUndefined();
    expect(readLog(`<?xml version="1.0"?>\n${'plain text, no element\n'.repeat(5000)}`)).toBeUndefined();
    expect(readLog(fixtureLog('go', 'v-mixed.log'))?.reader).toBe('go test -v');
  });
});

describe('auditing a parser of JUnit XML', () => {
  const reading = readLog(log());
  const dotted = Object.fromEntries(Object.entries(REPORT).map(([id, outcome]) => [id.replace('()', ''), outcome])) as Record<string, 'passed' | 'failed'>;

  it('accepts class.method with or without the parameter list', () => {
    expect(auditParser(dotted, reading)).toEqual({ status: 'agrees', reader: JUNIT_READER });
    expect(auditParser(REPORT, reading).status).toBe('agrees');
  });

  it('refuses a parser that invents a failure or drops a test', () => {
    expect(auditParser({ ...dotted, 'com.example.CalcTest.adds': 'failed' }, reading)).toMatchObject({ disagreements: [{ test: 'com.example.CalcTest.adds', parser: 'failed', log: 'passed' }] });
    const { 'com.example.CalcTest.throwsError': _dropped, ...dropped } = dotted;
    expect(auditParser(dropped, reading)).toMatchObject({ disagreements: [{ test: 'com.example.CalcTest.throwsError()', parser: 'missing', log: 'failed' }] });
    expect(auditParser({ ...dotted, 'com.example.CalcTest.skipped': 'passed' }, reading)).toMatchObject({ disagreements: [{ test: 'com.example.CalcTest.skipped', log: 'missing' }] });
  });
});
