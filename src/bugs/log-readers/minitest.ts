/**
 * Reads minitest (Ruby). With --verbose (TESTOPTS=--verbose under rake) it
 * prints a line a test, "LedgerTest#test_sums = 0.00 s = ." (F a failure, E
 * an error, S a skip), and every run ends with "5 runs, 5 assertions, 2
 * failures, 0 errors, 0 skips". Tests are named `Class#test_method`; aliases
 * `Class::test_method`, `Class.test_method` and the method alone. Skips are
 * not results.
 *
 * A run is read only when its lines add up to its summary. Without --verbose
 * minitest prints one character a test and names only the failing ones: the
 * log is recognised and left unread, saying so.
 *
 * A failing test's detail is its numbered entry ("  1) Failure:").
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { minitestNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';
import { Unreadable } from './unreadable.js';

export const MINITEST_READER = 'minitest';

const RESULT = /^(\S+)#(\S+) = \d+(?:\.\d+)? s = ([.FES])$/;
const SUMMARY = /^(\d+) runs, (\d+) assertions, (\d+) failures, (\d+) errors, (\d+) skips$/;
const HEAD = /^ {2}\d+\) (?:Failure|Error):$/;
const FAILED_TEST = /^(\S+)#(\S+)(?: \[.*\])?:$/;


export function minitestReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let run = new Map<string, { klass: string; method: string; mark: string }>();
  let details = new Map<string, DetailLines>();
  let detail: DetailLines | undefined;
  let expectName = false;
  let seen = false;
  const problem = new Unreadable();
  const note = (why: string) => problem.note(why);
  const noteOnlyFailures = (why: string) => problem.noteOnlyFailures(why);

  const close = (runs: number, failed: number, errors: number, skips: number) => {
    seen = true;
    const marks = [...run.values()].map((t) => t.mark);
    const count = (mark: string) => marks.filter((m) => m === mark).length;
    if (run.size === 0 && runs > 0) {
      noteOnlyFailures("minitest's default output names only the tests that fail; run it with --verbose (TESTOPTS=--verbose under rake) so each test has a line");
    } else if (run.size !== runs || count('F') !== failed || count('E') !== errors || count('S') !== skips) {
      note(`minitest's lines show ${run.size} test(s), ${count('F') + count('E')} failed, where it counted ${runs} runs, ${failed} failures, ${errors} errors (was the log cut, or did a test print a look-alike line?)`);
    } else {
      for (const [id, test] of run) {
        if (test.mark === 'S') continue;
        const names = minitestNames(test.klass, test.method);
        results.add(names, test.mark === '.' ? 'passed' : 'failed');
        if (test.mark !== '.') failures.add(names, details.get(id)?.lines ?? []);
      }
    }
    run = new Map();
    details = new Map();
    detail = undefined;
  };

  return {
    line(text) {
      const summary = SUMMARY.exec(text);
      if (summary) {
        close(Number(summary[1]), Number(summary[3]), Number(summary[4]), Number(summary[5]));
        return;
      }
      const result = RESULT.exec(text);
      if (result) {
        const id = `${result[1]}#${result[2]}`;
        if (run.has(id)) note(`test ${id} has two results in one minitest run`);
        run.set(id, { klass: result[1]!, method: result[2]!, mark: result[3]! });
        return;
      }
      if (HEAD.test(text)) {
        expectName = true;
        detail = undefined;
        return;
      }
      if (expectName) {
        expectName = false;
        const failed = FAILED_TEST.exec(text);
        if (failed) {
          detail = new DetailLines();
          details.set(`${failed[1]}#${failed[2]}`, detail);
          return;
        }
      }
      detail?.push(text);
    },
    finish(): LogReading | undefined {
      if (!seen) return undefined;
      const unread = problem.reading(MINITEST_READER);
      if (unread) return unread;
      return results.reading(MINITEST_READER);
    },
    failures: () => failures.record(),
  };
}
