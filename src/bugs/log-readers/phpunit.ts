/**
 * Reads PHPUnit's console output (8 to 10). With --testdox it prints each
 * test class as "Slug (Slugkit\Tests\Slug)" and a line a test under it:
 * " ✔ Lower cases words", " ✘ Truncates at a word boundary" (then its
 * failure in "│" lines), " ↩ …" skipped, " ∅ …" incomplete, " ☢ …" risky;
 * then "Time: …" and the tally, "OK (10 tests, 10 assertions)" or "Tests:
 * 10, Assertions: 10, Failures: 2." (Errors, Skipped, Incomplete, Risky
 * after). A test is named `<class in the header>::<its testdox title>` as
 * PHPUnit prints them ("Slugkit\Tests\Slug::Lower cases words": testdox
 * drops the class's Test suffix and spells the method out); aliases the
 * short class and the title joined by "::" and " > ". Skipped and
 * incomplete tests are not results; risky ones passed.
 *
 * A run is read only when its lines add up to its tally; what PHPUnit lists
 * again after "Time:" ("Summary of non-successful tests") is not read.
 * Without --testdox PHPUnit prints a character a test and names only the
 * failing ones: such a log is recognised and left unread, saying so (its
 * JUnit report, --log-junit, is read by junit-xml.ts).
 *
 * A failing test's detail is its "│" lines.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { phpunitNames, ResultSet, type TestName } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';
import { Unreadable } from './unreadable.js';

export const PHPUNIT_READER = 'PHPUnit';

const BANNER = /^PHPUnit \d+\.\d+\S* by Sebastian Bergmann and contributors\.$/;
const CLASS = /^([A-Za-z_][\w ]*) \(([A-Za-z_][\w\\]*)\)$/;
const RESULT = /^ ([✔✘↩∅☢⚠]) (.+)$/u;
const DETAIL = /^ {3}│ ?(.*)$/;
const TIME = /^Time: \S+, Memory: /;
const OK = /^OK \((\d+) tests?, \d+ assertions?\)$/;
const TALLY = /^Tests: (\d+), Assertions: \d+(.*)\.$/;
const NO_TESTS = /^No tests executed!$/;
const PROGRESS = /^[.FEWSRIDN]+\s+\d+ \/ \d+ \(\s*\d+%\)$/;

/** The named counts after "Tests: N, Assertions: M": Failures, Errors, Skipped, … */
function counts(rest: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [, key, n] of rest.matchAll(/, (\w+): (\d+)/g)) out[key!] = Number(n);
  return out;
}

export function phpunitReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let inRun = false;
  let testdox = false;
  let progress = false;
  let klass: { short: string; full: string } | undefined;
  let run: { names: TestName; mark: string; detail: DetailLines }[] = [];
  let current: DetailLines | undefined;
  let afterTime = false;
  let seen = false;
  const problem = new Unreadable();
  const note = (why: string) => problem.note(why);
  const noteOnlyFailures = (why: string) => problem.noteOnlyFailures(why);

  const close = (tests: number, failed: number) => {
    seen = true;
    if (!testdox) {
      if (tests > 0) {
        noteOnlyFailures(
          progress
            ? "PHPUnit's default output names only the tests that fail; run phpunit with --testdox (or print its --log-junit report) so each test has a line"
            : 'PHPUnit printed a tally but no test lines bugbench knows',
        );
      }
    } else {
      const marked = (marks: string) => run.filter((t) => marks.includes(t.mark)).length;
      if (run.length !== tests || marked('✘⚠') !== failed) {
        note(`PHPUnit's testdox lines show ${run.length} test(s), ${marked('✘⚠')} failed, where PHPUnit counted ${tests}, ${failed} failed or errored (was the log cut short?)`);
      } else {
        for (const test of run) {
          if (test.mark === '↩' || test.mark === '∅') continue;
          const failed = test.mark === '✘' || test.mark === '⚠';
          results.add(test.names, failed ? 'failed' : 'passed');
          if (failed) failures.add(test.names, test.detail.lines);
        }
      }
    }
    inRun = false;
    testdox = false;
    progress = false;
    klass = undefined;
    run = [];
    current = undefined;
    afterTime = false;
  };

  return {
    line(text) {
      if (BANNER.test(text)) {
        if (inRun) note('a PHPUnit run started before the last one printed its tally (a run was cut short)');
        inRun = true;
        return;
      }
      if (!inRun) return;
      const ok = OK.exec(text);
      if (ok) {
        close(Number(ok[1]), 0);
        return;
      }
      if (NO_TESTS.test(text)) {
        close(0, 0);
        return;
      }
      const tally = TALLY.exec(text);
      if (tally) {
        const named = counts(tally[2]!);
        close(Number(tally[1]), (named.Failures ?? 0) + (named.Errors ?? 0) + (named.Warnings ?? 0));
        return;
      }
      if (afterTime) return;
      if (TIME.test(text)) {
        afterTime = true;
        return;
      }
      if (PROGRESS.test(text)) progress = true;
      const detail = current ? DETAIL.exec(text) : null;
      if (detail) {
        current!.push(detail[1]!);
        return;
      }
      const result = klass ? RESULT.exec(text) : null;
      if (result) {
        testdox = true;
        const title = result[2]!;
        const names = phpunitNames(`${klass!.full}::${title}`, [klass!.full, klass!.short], title);
        current = new DetailLines();
        run.push({ names, mark: result[1]!, detail: current });
        return;
      }
      const header = CLASS.exec(text);
      if (header) {
        klass = { short: header[1]!, full: header[2]! };
        current = undefined;
      }
    },
    finish(): LogReading | undefined {
      if (inRun) {
        seen = true;
        note('the PHPUnit run did not print its tally ("OK (…)" or "Tests: …"): it stopped or the log was cut short');
      }
      if (!seen) return undefined;
      const unread = problem.reading(PHPUNIT_READER);
      if (unread) return unread;
      return results.reading(PHPUNIT_READER);
    },
    failures: () => failures.record(),
  };
}
