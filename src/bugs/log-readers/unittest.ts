/**
 * Reads the verbose output of Python's unittest runner (`python -m unittest
 * -v`, `python -m pytest` aside) and of the runners built on it (Django's
 * `manage.py test -v 2`, `runtests.py`): one line a test, "test_x
 * (mod.Class) ... ok" before Python 3.11 and "test_x (mod.Class.test_x) ...
 * ok" since; a test with a docstring puts its first line on a line of its own
 * ("test_x (mod.Class)" then "Adds two numbers. ... ok"); a failing subtest
 * gets an indented line of its own under its test ("  test_x (mod.Class.test_x)
 * (i=1) ... FAIL", 3.11 and later). The run ends with "Ran 13 tests in 0.008s",
 * then "OK", "OK (skipped=1)" or "FAILED (failures=3, errors=1, …)".
 *
 * A test whose status is not on its line (Django prints its set-up between
 * the name and the status, stderr and stdout interleave) takes the next line
 * that is a status alone ("ok"). A test line glued to the end of a Django
 * progress line ("  Applying auth.0012_…...test_x (…) ... ok") is read too.
 *
 * Tests are named `mod.Class.test_x` (unittest's test id) by test-ids.ts,
 * which lets a parser write "test_x (mod.Class)" and "test_x
 * (mod.Class.test_x)" too (the key SWE-bench's Django parser writes). ok is a pass, FAIL and ERROR a failure (a test
 * fails when one of its subtests does), "expected failure" an expected
 * failure, "unexpected success" a failure (unittest counts the run FAILED);
 * skipped tests are not results. An error in setUpClass or setUpModule (a
 * line "setUpClass (mod.Class) ... ERROR", not counted in "Ran") is an
 * optional failure.
 *
 * A run is read only when its lines add up to "Ran N tests" and to every
 * count of its final line; a run without -v (dots), a log cut short, or a
 * test that printed into the line of another leaves the log unread, with the
 * reason. The log is unittest's when it holds a "Ran N tests in" line or a
 * whole test line with its status ("test_x (mod.Class) ... ok"), so a run cut
 * before its "Ran" line is known and unread.
 */
import { ResultSet, unittestNames, type TestName } from './test-ids.js';
import type { LogOutcome, LogReader, LogReading } from './types.js';

export const UNITTEST_READER = 'unittest -v';

const START = /^(?:.*?\.\.\.)?(\w+) \(([\w.]+)\)(.*)$/;
const SUBTEST = /^ {2}(\w+) \(([\w.]+)\) (.*) \.\.\. (.+)$/;
const STATUS = /^(ok|FAIL|ERROR|expected failure|unexpected success|skipped(?: .*)?)$/;
const RAN = /^Ran (\d+) tests? in \d+(?:\.\d+)?s$/;
const VERDICT = /^(OK|FAILED)(?: \((.*)\))?$/;
const HOLDERS = new Set(['setUpClass', 'tearDownClass', 'setUpModule', 'tearDownModule']);

type Count = 'failures' | 'errors' | 'skipped' | 'expected failures' | 'unexpected successes';

const COUNT_OF: Record<string, Count | undefined> = {
  FAIL: 'failures',
  ERROR: 'errors',
  skipped: 'skipped',
  'expected failure': 'expected failures',
  'unexpected success': 'unexpected successes',
};
const OUTCOME: Record<string, LogOutcome | undefined> = { ok: 'passed', FAIL: 'failed', ERROR: 'failed', 'expected failure': 'xfailed', 'unexpected success': 'failed' };

interface Pending {
  names: TestName;
  holder: boolean;
  /** Waiting for a docstring line, which ends with the status. */
  docstring: boolean;
  subtestFailed: boolean;
}

export function unittestReader(): LogReader {
  const results = new ResultSet();
  let seen = false;
  let pending: Pending | undefined;
  let tally = { tests: 0, counts: new Map<string, number>() };
  let ran: number | undefined;
  let problem: string | undefined;
  let open = false;

  const settle = (status: string) => {
    const test = pending!;
    pending = undefined;
    const word = status.startsWith('skipped') ? 'skipped' : status;
    const count = COUNT_OF[word];
    if (count) tally.counts.set(count, (tally.counts.get(count) ?? 0) + 1);
    const outcome = test.subtestFailed && word === 'ok' ? 'failed' : OUTCOME[word];
    if (outcome) results.add(test.names, outcome, test.holder);
  };
  /** A test left without a status: fine when its subtests failed (they said so), else its line was broken. */
  const drop = () => {
    if (!pending) return;
    if (pending.subtestFailed) results.add(pending.names, 'failed', pending.holder);
    else problem ??= `test ${pending.names.id} has no status (a line printed into its line?)`;
    pending = undefined;
  };

  const verdict = (counts: string | undefined) => {
    const said = new Map<string, number>();
    for (const item of (counts ?? '').split(', ')) {
      const m = /^([a-z ]+)=(\d+)$/.exec(item.trim());
      if (m) said.set(m[1]!, Number(m[2]));
    }
    if (ran !== tally.tests) problem ??= `unittest ran ${ran} test(s) where its lines show ${tally.tests} (run it with -v, verbosity 2, so that every test gets a line)`;
    for (const key of Object.values(COUNT_OF) as Count[]) {
      if ((said.get(key) ?? 0) !== (tally.counts.get(key) ?? 0)) {
        problem ??= `unittest counted ${said.get(key) ?? 0} ${key} where its lines show ${tally.counts.get(key) ?? 0}`;
      }
    }
    tally = { tests: 0, counts: new Map() };
    ran = undefined;
    open = false;
  };

  return {
    line(text) {
      if (ran !== undefined) {
        if (text.trim() === '') return;
        const end = VERDICT.exec(text);
        if (end) verdict(end[2]);
        else {
          problem ??= `"Ran ${ran} tests" is not followed by unittest's verdict`;
          ran = undefined;
          open = false;
        }
        return;
      }
      const total = RAN.exec(text);
      if (total) {
        seen = true;
        drop();
        ran = Number(total[1]);
        return;
      }
      if (pending?.docstring) {
        pending.docstring = false;
        const at = text.lastIndexOf(' ... ');
        if (at >= 0 && STATUS.test(text.slice(at + 5))) settle(text.slice(at + 5));
        return;
      }
      const subtest = pending ? SUBTEST.exec(text) : null;
      if (subtest && pending && subtest[1] === pending.names.id.slice(pending.names.id.lastIndexOf('.') + 1)) {
        const status = subtest[4]!;
        const word = status.startsWith('skipped') ? 'skipped' : status;
        const count = COUNT_OF[word];
        if (count) tally.counts.set(count, (tally.counts.get(count) ?? 0) + 1);
        if (word === 'FAIL' || word === 'ERROR') pending.subtestFailed = true;
        return;
      }
      if (pending && STATUS.test(text)) {
        settle(text);
        return;
      }
      const start = START.exec(text);
      if (!start) return;
      const rest = start[3]!;
      if (rest !== '' && !rest.startsWith(' ... ')) return;
      drop();
      open = true;
      const holder = HOLDERS.has(start[1]!);
      const names = unittestNames(start[1]!, start[2]!);
      if (!holder) tally.tests++;
      pending = { names, holder, docstring: rest === '', subtestFailed: false };
      const status = rest.slice(5);
      if (STATUS.test(status)) {
        seen ||= text.startsWith(`${start[1]} (`);
        settle(status);
      }
    },
    finish(): LogReading | undefined {
      if (!seen) return undefined;
      if (ran !== undefined) problem ??= `"Ran ${ran} tests" is not followed by unittest's verdict`;
      else if (open || pending) problem ??= 'the unittest run did not finish (its log has no "Ran N tests" line after its last test)';
      return problem ? { reader: UNITTEST_READER, why: problem } : results.reading(UNITTEST_READER);
    },
  };
}
