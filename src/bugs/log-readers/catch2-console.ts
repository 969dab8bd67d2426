/**
 * Reads Catch2's console reporter (v2 and v3), which prints a block for each
 * failing assertion, headed by its test case's name between two rules of
 * dashes, and a closing tally: "test cases: 3 | 2 passed | 1 failed" (or
 * "test cases: 1 | 1 failed", "All tests passed (6 assertions in 3 test
 * cases)"). It never names a test case that passed, so a run is read only
 * when none did: then the failing test cases, by name, are every result.
 * That is what CTest's --output-on-failure shows of a Catch2 test found by
 * catch_discover_tests (one test case a run). A run where some passed is
 * recognised and left unread, saying how to get a line per test case (the
 * JUnit reporter, read by junit-xml.ts, or CTest).
 *
 * A failing test case's detail is its first failing assertion's block.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';
import { Unreadable } from './unreadable.js';

export const CATCH2_READER = 'Catch2 console';

const RULE = /^-{79}$/;
const DOTS = /^\.{79}$/;
const END = /^={79}$/;
const LOCATION = /^\S.*:\d+$|^\S.*\(\d+\)$/;
const TALLY = /^test cases:\s+(\d+) \|(?: (\d+) passed \|)? (\d+) failed/;
const ALL_PASSED = /^All tests passed \((\d+) assertions? in (\d+) test cases?\)$/;
const NO_TESTS = /^No tests ran$/;

type Header = 'none' | 'name' | 'sections' | 'location';

export function catch2ConsoleReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let seen = false;
  const problem = new Unreadable();
  const note = (why: string) => problem.note(why);
  const noteOnlyFailures = (why: string) => problem.noteOnlyFailures(why);
  /** The failing test cases of the run being read, with their first block. */
  let failing = new Map<string, DetailLines>();
  let header: Header = 'none';
  let name = '';
  let block: DetailLines | undefined;

  const close = (total: number, passed: number, failed: number) => {
    seen = true;
    const names = failing;
    failing = new Map();
    block = undefined;
    if (passed > 0) {
      noteOnlyFailures(
        `Catch2's console reporter names only the test cases that fail (${passed} of ${total} passed unnamed); ` +
          'run the tests through CTest (catch_discover_tests) or with -r junit so each test case has a result',
      );
      return;
    }
    if (names.size !== failed || total !== failed) {
      note(`a Catch2 run names ${names.size} failing test case(s) where it counted ${failed} failed of ${total}`);
      return;
    }
    for (const [test, lines] of names) {
      results.add({ id: test }, 'failed');
      failures.add({ id: test }, lines.lines);
    }
  };

  return {
    line(text) {
      if (RULE.test(text)) {
        header = header === 'none' ? 'name' : header === 'name' || header === 'sections' ? 'location' : 'name';
        return;
      }
      if (header === 'name') {
        name = text;
        header = 'sections';
        return;
      }
      if (header === 'sections') {
        // Sections are indented under the test case's name.
        if (/^ {2}\S/.test(text)) return;
        header = 'none';
        return;
      }
      if (header === 'location') {
        if (LOCATION.test(text) || DOTS.test(text)) {
          if (DOTS.test(text)) {
            header = 'none';
            block = failing.get(name) ? undefined : new DetailLines();
            if (block) failing.set(name, block);
          }
          return;
        }
        header = 'none';
      }
      const tally = TALLY.exec(text);
      if (tally) {
        close(Number(tally[1]), Number(tally[2] ?? 0), Number(tally[3]));
        return;
      }
      const all = ALL_PASSED.exec(text);
      if (all) {
        close(Number(all[2]), Number(all[2]), 0);
        return;
      }
      if (NO_TESTS.test(text)) {
        seen = true;
        failing = new Map();
        return;
      }
      if (END.test(text)) {
        block = undefined;
        return;
      }
      block?.push(text);
    },
    finish(): LogReading | undefined {
      if (!seen) return undefined;
      const unread = problem.reading(CATCH2_READER);
      if (unread) return unread;
      return results.reading(CATCH2_READER);
    },
    failures: () => failures.record(),
  };
}
