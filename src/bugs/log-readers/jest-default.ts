/**
 * Reads jest's default reporter, as jest prints it without --verbose for a
 * run of several files: a header a file ("PASS test/a.test.js", "FAIL …"),
 * under a failed file a "● a › b" section for each failed test, then the
 * run's summary ("Test Suites: …" and "Tests: 3 failed, 1 skipped, 1 todo, 5
 * passed, 10 total"). It is the --verbose log without the trees, so it names
 * only the failed tests: they are named as jest-verbose.ts names them (file,
 * then the titles, joined by " > "), and the passes are counted, not named
 * (a reading's `unnamed`). A file that fails to run ("● Test suite failed to
 * run") is an optional failure named by its path.
 *
 * A run is read only when its named failures are as many as its "Tests:"
 * line counts (the line that comes right after "Test Suites:"); a "●" line a
 * test printed breaks that and leaves the log unread. A log with trees is
 * jest-verbose.ts's, and this reader leaves it alone. With more than 20
 * files jest repeats the failures under "Summary of all failing tests": a
 * test met twice counts once.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { pathNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const JEST_DEFAULT_READER = 'jest (default reporter)';

const HEADER = /^ ?(PASS|FAIL) +(\S.*?)(?: \(\d+(?:\.\d+)? m?s\))?$/;
/** A line of a --verbose tree: then the log is jest-verbose.ts's. */
const TREE_TEST = /^ {2,}(✓|✕|○|✎) /;
const SECTION = /^ {2}● (.+)$/;
const SUITES = /^Test Suites: /;
const TESTS = /^Tests: +(.*)$/;
const SUITE_FAILED = 'Test suite failed to run';

export function jestDefaultReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let section: { names: ReturnType<typeof pathNames>; lines: DetailLines } | undefined;
  const endSection = () => {
    if (section) failures.add(section.names, section.lines.lines);
    section = undefined;
  };
  let file: string | undefined;
  let afterHeader = false;
  let tree = false;
  let seen = false;
  let open = false;
  let afterSuites = false;
  /** Failed tests named since the run's last summary. */
  let failed = new Set<string>();
  let passed = 0;
  let problem: string | undefined;

  const closeRun = (counts: string) => {
    const said: Record<string, number> = {};
    for (const item of counts.split(', ')) {
      const m = /^(\d+) (passed|failed|skipped|todo|total)$/.exec(item.trim());
      if (m) said[m[2]!] = Number(m[1]);
    }
    const total = (said.passed ?? 0) + (said.failed ?? 0) + (said.skipped ?? 0) + (said.todo ?? 0);
    if (total !== (said.total ?? -1)) problem ??= `jest's "Tests:" line does not add up: ${counts}`;
    else if ((said.failed ?? 0) !== failed.size) problem ??= `jest counted ${said.failed ?? 0} failed test(s) where its log names ${failed.size} ("●" sections)`;
    passed += said.passed ?? 0;
    failed = new Set();
    open = false;
  };

  return {
    line(text) {
      const wasAfterSuites = afterSuites;
      afterSuites = false;
      const wasAfterHeader = afterHeader;
      afterHeader = false;
      const header = HEADER.exec(text);
      if (header || SUITES.test(text) || /^ {2}console\.\w+$/.test(text)) endSection();
      if (header) {
        open = afterHeader = true;
        file = header[2]!;
        return;
      }
      if (wasAfterHeader && TREE_TEST.test(text)) tree = true;
      const title = file !== undefined ? SECTION.exec(text)?.[1] : undefined;
      if (title !== undefined) {
        endSection();
        const names = title === SUITE_FAILED ? { id: file! } : pathNames(title.split(' › '), file);
        if (title === SUITE_FAILED) results.add(names, 'failed', true);
        else if (!failed.has(names.id)) {
          failed.add(names.id);
          results.add(names, 'failed');
        }
        section = { names, lines: new DetailLines() };
        return;
      }
      section?.lines.push(text);
      if (SUITES.test(text)) {
        seen = true;
        afterSuites = true;
        return;
      }
      const tests = wasAfterSuites ? TESTS.exec(text) : null;
      if (tests) closeRun(tests[1]!);
    },
    finish(): LogReading | undefined {
      endSection();
      if (!seen || tree) return undefined;
      if (open) problem ??= 'the jest run did not finish (its log has no "Tests:" summary)';
      if (problem) return { reader: JEST_DEFAULT_READER, why: problem };
      const reading = results.reading(JEST_DEFAULT_READER);
      if (passed > 0 && reading.results) reading.unnamed = { passed, why: 'jest without --verbose names only the failed tests (run jest with --verbose to name every test)' };
      return reading;
    },
    failures: () => failures.record(),
  };
}
