import { describe, expect, it } from 'vitest';
import { readLog } from '../../../src/bugs/log-readers/index.js';
import { GRADLE_READER } from '../../../src/bugs/log-readers/gradle-console.js';
import { JUNIT_READER } from '../../../src/bugs/log-readers/junit-xml.js';
import { SUREFIRE_READER } from '../../../src/bugs/log-readers/surefire-console.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces, resolveNames } from './log-reader-fixtures.js';

const java = (name: string) => fixtureLog('java-console', name);

/** What project/ gives under Surefire 3.2.5 (see test/fixtures/logs/java-console). */
const CALC = {
  'com.example.CalcTest$Inner.deep': 'passed',
  'com.example.CalcTest.adds': 'passed',
  'com.example.CalcTest.subtracts': 'failed',
  'com.example.CalcTest.throwsIllegalState': 'failed',
  'com.example.CalcTest.positive(int)[1]': 'passed',
  'com.example.CalcTest.positive(int)[2]': 'failed',
  'com.example.CalcTest.positive(int)[3]': 'passed',
  'com.example.OtherTest.adds': 'passed',
} as const;
const FAILED = Object.fromEntries(Object.entries(CALC).filter(([, o]) => o === 'failed'));
const honest = (map: Record<string, string>) => map as Record<string, 'passed' | 'failed'>;

describe('the Surefire console reader', () => {
  it('reads every test of the plain format, the failures of the brief one with the passes counted', () => {
    expect(readLog(java('surefire325-plain.log'))).toMatchObject({ reader: SUREFIRE_READER, results: CALC });
    expect(readLog(java('surefire325-plain.log'))?.unnamed).toBeUndefined();
    const brief = readLog(java('surefire325.log'));
    expect(brief).toMatchObject({ reader: SUREFIRE_READER, results: FAILED, unnamed: { passed: 5 } });
    expect(brief?.unnamed?.why).toMatch(/-Dsurefire\.reportFormat=plain/);
    expect(readLog(java('surefire2-junit4-pasted.log'))).toMatchObject({ reader: SUREFIRE_READER, results: { 'exampleclients.ExampleJavaConsumerPactRuleTest.runTest': 'failed' } });
    for (const size of [1, 29, 1000]) expect(readInPieces(java('surefire325.log'), size)).toEqual(brief);
  });

  it('gives way to the XML reports of the same run, which name every test', () => {
    expect(readLog(java('surefire325-with-xml.log'))).toMatchObject({ reader: JUNIT_READER, results: CALC });
    expect(readLog(java('surefire325-with-xml.log'))?.unnamed).toBeUndefined();
  });

  it('refuses a run cut short, printed look-alikes, classes that do not add up', () => {
    expect(readLog(cutBefore(java('surefire325.log'), '[ERROR] Tests run: 9, Failures: 2'))?.why).toMatch(/did not finish/);
    expect(readLog(java('surefire325-look-alike.log'))?.why).toMatch(/Surefire counted 9 failed test\(s\) in com\.example\.FakeTest but named 1/);
    expect(readLog(java('surefire325.log').replace('[ERROR] Tests run: 9, Failures: 2, Errors: 1, Skipped: 1', '[ERROR] Tests run: 10, Failures: 2, Errors: 1, Skipped: 1'))?.why).toMatch(
      /totals \(10 run, 3 failed, 1 skipped\) are not the sum of its classes \(9, 3, 1\)/,
    );
    expect(readLog(java('surefire325-plain.log').replace('[INFO] com.example.OtherTest.adds -- Time elapsed: 0.001 s\n', '[INFO] com.example.OtherTest.adds -- Time elapsed: 0.001 s\n[INFO] com.example.OtherTest.more -- Time elapsed: 0.001 s\n'))?.why).toMatch(
      /counted 1 passed test\(s\) in com\.example\.OtherTest but named 2/,
    );
  });

  it('takes a parser’s other passes on count, exactly, and says so', () => {
    const reading = readLog(java('surefire325.log'));
    const parser = honest({ ...CALC });
    const audit = auditParser(parser, reading);
    expect(audit).toMatchObject({ status: 'agrees', reader: SUREFIRE_READER });
    expect(audit.status === 'agrees' && audit.unseen).toMatch(/could not see 5 passing test\(s\) by name/);
    // A pass left out, a pass invented, a failure hidden.
    const { ['com.example.OtherTest.adds']: _, ...fewer } = parser;
    expect(auditParser(fewer, reading)).toMatchObject({ status: 'disagrees' });
    expect(auditParser({ ...parser, 'com.example.OtherTest.invented': 'passed' }, reading)).toMatchObject({ status: 'disagrees' });
    expect(auditParser({ ...parser, 'com.example.CalcTest.subtracts': 'passed' }, reading)).toMatchObject({ status: 'disagrees' });
    expect(auditParser({ ...parser, 'com.example.CalcTest.invented': 'failed' }, reading)).toMatchObject({ status: 'disagrees' });
  });
});

describe('the Gradle console reader', () => {
  const events = [
    '> Task :compileTestJava',
    '> Task :test',
    '',
    'CalcTest > adds() PASSED',
    'CalcTest > subtracts() FAILED',
    '    org.opentest4j.AssertionFailedError at CalcTest.java:19',
    'CalcTest > disabled() SKIPPED',
    'CalcTest > Inner > deep() PASSED',
    'CalcTest > positive(int) > [1] 1 PASSED',
    'CalcTest > positive(int) > [2] 2 FAILED',
    '    org.opentest4j.AssertionFailedError at CalcTest.java:35',
    '',
    '6 tests completed, 2 failed, 1 skipped',
    '',
    '> Task :test FAILED',
    '',
    'FAILURE: Build failed with an exception.',
    'BUILD FAILED in 3s',
  ];
  const log = events.join('\n');

  it('reads every event of a task that shows passes, named by its path, which a parser may write as JUnit names', () => {
    const reading = readLog(log);
    expect(reading).toMatchObject({
      reader: GRADLE_READER,
      results: {
        'CalcTest > adds()': 'passed',
        'CalcTest > subtracts()': 'failed',
        'CalcTest > Inner > deep()': 'passed',
        'CalcTest > positive(int) > [1] 1': 'passed',
        'CalcTest > positive(int) > [2] 2': 'failed',
      },
    });
    const names = ['CalcTest.adds()', 'CalcTest#adds', 'CalcTest.adds', 'CalcTest > adds()'];
    expect(Object.values(resolveNames(reading, names))).toEqual(names.map(() => 'CalcTest > adds()'));
  });

  it('counts the passes of a task that shows only failures (Gradle’s default), and reads a passing build that shows its passes', () => {
    const failuresOnly = log.replace(/^.* PASSED\n/gm, '').replace(/^.* SKIPPED\n/gm, '');
    expect(readLog(failuresOnly)).toMatchObject({ results: { 'CalcTest > subtracts()': 'failed', 'CalcTest > positive(int) > [2] 2': 'failed' }, unnamed: { passed: 3 } });
    const passing = '> Task :test\n\nCalcTest > adds() PASSED\nOtherTest > adds() PASSED\n\nBUILD SUCCESSFUL in 2s\n';
    expect(readLog(passing)?.results).toEqual({ 'CalcTest > adds()': 'passed', 'OtherTest > adds()': 'passed' });
  });

  it('refuses a build cut short, counts its events do not reach, and a passing build that shows no passes', () => {
    expect(readLog(events.slice(0, 10).join('\n'))?.why).toMatch(/did not finish/);
    expect(readLog(log.replace('6 tests completed, 2 failed', '6 tests completed, 3 failed'))?.why).toMatch(/counted 3 failed test\(s\) where its events show 2/);
    expect(readLog(log.replace('CalcTest > adds() PASSED\n', ''))?.why).toMatch(/counted 3 passed test\(s\) where its events show 2/);
    expect(readLog('> Task :test\n\nCalcTest > adds() SKIPPED\n\nBUILD SUCCESSFUL in 2s\n')?.why).toMatch(/no PASSED events/);
  });

  it('holds a parser to the events', () => {
    const parser = honest({ 'CalcTest.adds': 'passed', 'CalcTest#subtracts': 'failed', 'CalcTest > Inner > deep()': 'passed', 'CalcTest > positive(int) > [1] 1': 'passed', 'CalcTest > positive(int) > [2] 2': 'failed' });
    expect(auditParser(parser, readLog(log))).toEqual({ status: 'agrees', reader: GRADLE_READER });
    expect(auditParser({ ...parser, 'CalcTest.adds': 'failed' }, readLog(log))).toMatchObject({ status: 'disagrees' });
  });
});
