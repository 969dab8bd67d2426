/**
 * Reads CTest (`ctest`, with or without `--output-on-failure`, `-j N`): a run
 * framed by "Test project /path/to/build" and "78% tests passed, 2 tests
 * failed out of 9", with one line a test in between:
 * "6/9 Test #6: MedianTest.EvenCountIsMeanOfMiddleTwo ...***Failed    0.01 sec".
 * A test is named as CTest names it (add_test's NAME; gtest_discover_tests
 * gives "Suite.Test", catch_discover_tests the test case's name). "Passed"
 * passes; a skipped or disabled test is not a result; any other status
 * ("***Failed", "***Timeout", "***Exception: SegFault", "***Not Run",
 * "Failed  Required regular expression not found…") fails.
 *
 * A run is read only when its result lines number what its summary counts,
 * each test number appears once and the failures add up; so what a failing
 * test printed under --output-on-failure (it follows the test's result line)
 * cannot pose as a result, and a run cut short leaves the log unread. A log
 * where no test was found ("No tests were found!!!") shows no tests.
 *
 * A failing test's detail is what it printed under --output-on-failure.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { dottedNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';
import { Unreadable } from './unreadable.js';

export const CTEST_READER = 'ctest';

const PROJECT = /^Test project (.+)$/;
/** The name is padded with dots; the status follows "***" (a failure of any kind) or spaces ("Passed", "Skipped", "Not Run (Disabled)"). */
const RESULT = /^\s*(\d+)\/(\d+) Test\s+#(\d+): (.+?) \.*(?:\*\*\*(\S.*?)|\s+(\S.*?))\s+(\d+(?:\.\d+)?) sec$/;
const START = /^\s*Start\s+\d+: /;
const SUMMARY = /^(\d+)% tests passed, (\d+) tests? failed out of (\d+)$/;
const NONE = /^No tests were found!!!$/;

interface Run {
  total?: number;
  /** Result by test number: the name and whether it passed, failed or did not run. */
  seen: Map<number, { name: string; outcome: 'passed' | 'failed' | 'skipped' }>;
  printed: Map<number, DetailLines>;
  current?: DetailLines;
}

function outcomeOf(starred: string | undefined, plain: string | undefined): 'passed' | 'failed' | 'skipped' {
  const status = starred ?? plain ?? '';
  if (/^(Skipped|Not Run \(Disabled\))/.test(status)) return 'skipped';
  return starred === undefined && status === 'Passed' ? 'passed' : 'failed';
}

export function ctestReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let seen = false;
  let run: Run | undefined;
  const problem = new Unreadable();
  const note = (why: string) => problem.note(why);

  const close = (failed: number, total: number) => {
    const r = run!;
    run = undefined;
    const outcomes = [...r.seen.values()];
    const failing = outcomes.filter((t) => t.outcome === 'failed').length;
    if (r.seen.size !== total || failing !== failed) {
      note(`the run shows ${r.seen.size} test result(s), ${failing} failed, where CTest counted ${failed} failed out of ${total} (was the log cut short, or did a test print a look-alike of CTest's lines?)`);
      return;
    }
    for (const [number, test] of r.seen) {
      if (test.outcome === 'skipped') continue;
      const names = dottedNames(test.name);
      results.add(names, test.outcome);
      if (test.outcome === 'failed') failures.add(names, r.printed.get(number)?.lines ?? []);
    }
  };

  return {
    line(text) {
      if (PROJECT.test(text)) {
        seen = true;
        if (run) note('a CTest run started before the last one printed its summary (a run was cut short)');
        run = { seen: new Map(), printed: new Map() };
        return;
      }
      if (!run) {
        if (NONE.test(text)) seen = true;
        return;
      }
      const summary = SUMMARY.exec(text);
      if (summary) {
        close(Number(summary[2]), Number(summary[3]));
        return;
      }
      if (NONE.test(text)) {
        run = undefined;
        return;
      }
      const result = RESULT.exec(text);
      if (result) {
        const [total, number, name] = [Number(result[2]), Number(result[3]), result[4]!];
        if (run.total !== undefined && run.total !== total) note(`test #${number} (${name}) counts ${total} tests where the run's others count ${run.total}`);
        run.total = total;
        if (run.seen.has(number)) note(`test #${number} (${name}) has two results (a test may have printed a look-alike of CTest's line)`);
        else run.seen.set(number, { name, outcome: outcomeOf(result[5], result[6]) });
        run.current = new DetailLines();
        run.printed.set(number, run.current);
        return;
      }
      if (START.test(text)) {
        run.current = undefined;
        return;
      }
      run.current?.push(text);
    },
    finish(): LogReading | undefined {
      if (!seen) return undefined;
      if (run) note('the CTest run did not print its summary ("N% tests passed, …"): it stopped or the log was cut short');
      const unread = problem.reading(CTEST_READER);
      if (unread) return unread;
      return results.reading(CTEST_READER);
    },
    failures: () => failures.record(),
  };
}
