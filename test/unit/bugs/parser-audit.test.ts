import { describe, expect, it } from 'vitest';
import { auditParser, disagreementReason } from '../../../src/bugs/parser-audit.js';
import { parserTrust, runProblem, timeoutReason } from '../../../src/bugs/run-problems.js';
import type { RunRecord } from '../../../src/bugs/test-run.js';

const reading = { reader: 'pytest -rA', results: { 'a.py::t1': 'passed', 'a.py::t2': 'failed', 'a.py::t3': 'xfailed' } as const };

describe('auditParser', () => {
  it('agrees when every test reads the same; an expected failure may be left out or passed', () => {
    expect(auditParser({ 'a.py::t1': 'passed', 'a.py::t2': 'failed' }, reading)).toEqual({ status: 'agrees', reader: 'pytest -rA' });
    expect(auditParser({ 'a.py::t1': 'passed', 'a.py::t2': 'failed', 'a.py::t3': 'passed' }, reading).status).toBe('agrees');
  });

  it('names each test it disagrees on, with both readings', () => {
    const audit = auditParser({ 'a.py::t1': 'failed', 'a.py::t3': 'failed', 'a.py::ghost': 'failed' }, reading);
    expect(audit).toEqual({
      status: 'disagrees',
      reader: 'pytest -rA',
      disagreements: [
        { test: 'a.py::ghost', parser: 'failed', log: 'missing' },
        { test: 'a.py::t1', parser: 'failed', log: 'passed' },
        { test: 'a.py::t2', parser: 'missing', log: 'failed' },
        { test: 'a.py::t3', parser: 'failed', log: 'xfailed' },
      ],
    });
    expect(disagreementReason('buggy', audit as Extract<typeof audit, { status: 'disagrees' }>, 2)).toBe(
      `the parser disagrees with bugbench's reading (pytest -rA) of the "buggy" run's log on 4 test(s): a.py::ghost: the parser says failed, the log does not show it; a.py::t1: the parser says failed, the log says passed; … (4 in all)`,
    );
  });

  it('trusts the parser where no reader can read the log, and says why', () => {
    expect(auditParser({ x: 'passed' }, undefined)).toEqual({ status: 'unverified', why: 'no reader in bugbench knows the format of this log' });
    expect(auditParser({ x: 'passed' }, { reader: 'pytest -rA', why: 'cut short' })).toEqual({ status: 'unverified', reader: 'pytest -rA', why: 'cut short' });
  });
});

function run(over: Partial<RunRecord>): RunRecord {
  return {
    label: 'buggy',
    state: 'buggy',
    command: 'bash test_script.sh',
    exitCode: 0,
    durationMs: 10,
    timedOut: false,
    limitSec: 90,
    logPath: '/tmp/x.log',
    results: { t: 'passed' },
    parser: { command: 'python3 test_parser.py', exitCode: 0, durationMs: 1 },
    audit: { status: 'agrees', reader: 'pytest -rA' },
    ...over,
  };
}

describe('runs without a trustworthy map', () => {
  it('says a run timed out, in which state, and names a rerun', () => {
    expect(runProblem(run({ timedOut: true }))).toBe('timed out after 90 s in the buggy state');
    expect(timeoutReason({ label: 'buggy (run 3)', state: 'buggy', limitSec: 10 })).toBe('timed out after 10 s in the buggy state ("buggy (run 3)")');
    expect(timeoutReason({ label: 'revert a.py', state: 'buggy with a.py reverted', limitSec: 10 })).toBe('timed out after 10 s in the buggy with a.py reverted state');
  });

  it('puts a time-out before a parser failure, and a parser failure before a disagreement', () => {
    const failed = { command: '', exitCode: 1, durationMs: 1, error: 'the parser exited with 1' };
    expect(runProblem(run({ timedOut: true, parser: failed }))).toMatch(/^timed out/);
    expect(runProblem(run({ parser: failed }))).toBe('the parser failed on the "buggy" run: the parser exited with 1');
    expect(runProblem(run({ audit: { status: 'disagrees', reader: 'r', disagreements: [{ test: 't', parser: 'failed', log: 'passed' }] } }))).toMatch(/disagrees .* "buggy" run's log on 1 test/);
    expect(runProblem(run({}))).toBeUndefined();
  });

  it('sums up the parser checks of a report', () => {
    expect(parserTrust([run({}), run({ label: 'original' })])).toEqual({ status: 'verified', reader: 'pytest -rA', unverified: [] });
    const unread = run({ label: 'gold patch', audit: { status: 'unverified', reader: 'pytest -rA', why: 'cut short' } });
    expect(parserTrust([run({}), unread, unread])).toEqual({ status: 'unverified', reader: 'pytest -rA', unverified: [{ run: 'gold patch', why: 'cut short' }] });
    expect(parserTrust([]).status).toBe('unverified');
  });
});
