/**
 * Reads vitest's verbose reporter as vitest 3 prints it when its output is not
 * a terminal: after the " RUN  v3.2.7 /repo" line, one line a test with its
 * whole path (" ✓ test/a.test.js > math > adds 1ms", " × … > throws 2ms", " ↓ …
 * > skipped"), then the totals ("      Tests  3 failed | 5 passed | 1 skipped
 * | 1 todo (10)"). Tests are named by test-ids.ts (the path as vitest prints
 * it, file first); skipped and todo tests are not results, and a file that
 * fails to load (" FAIL  test/b.test.js [ test/b.test.js ]") is an optional
 * failure named by its path.
 *
 * A run is read only when its lines add up to its totals. What tests print
 * comes in "stdout | …" blocks beside the results; a printed line that looks
 * like a result breaks the counts and leaves the log unread. vitest 1 and 2
 * print a tree of titles instead of paths: those logs are unread too.
 *
 * A failed test's detail is the "   → message" lines under its result line.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { pathNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const VITEST_READER = 'vitest --reporter=verbose';

const START = /^ RUN {2}v\d+\.\d+\.\d+/;
const TEST = /^ (✓|×|↓) (\S.*? > .*?)(?: \d+(?:\.\d+)?m?s)?$/;
const FILE_FAILED = /^ FAIL {2}(\S+) \[ (\S+) \]$/;
const ARROW = /^ {3}→ (.*)$/;
const TOTALS = /^ +Tests {2}(.+) \((\d+)\)$/;

export function vitestVerboseReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  /** The failed test whose "→" lines may follow. */
  let failed: { names: ReturnType<typeof pathNames>; lines: DetailLines } | undefined;
  const endFailed = () => {
    if (failed) failures.add(failed.names, failed.lines.lines);
    failed = undefined;
  };
  let seen = false;
  let open = false;
  let tally = { passed: 0, failed: 0, notRun: 0 };
  let problem: string | undefined;

  return {
    line(text) {
      if (START.test(text)) {
        seen = true;
        if (open) problem ??= 'a vitest run started before the last one ended';
        open = true;
        tally = { passed: 0, failed: 0, notRun: 0 };
        return;
      }
      if (!open) return;
      const arrow = failed ? ARROW.exec(text) : null;
      if (arrow) {
        failed!.lines.push(arrow[1]!);
        return;
      }
      endFailed();
      const test = TEST.exec(text);
      if (test) {
        const [file, ...titles] = test[2]!.split(' > ');
        if (test[1] === '↓') tally.notRun++;
        else {
          const outcome = test[1] === '✓' ? 'passed' : 'failed';
          tally[outcome]++;
          results.add(pathNames(titles, file), outcome);
          if (outcome === 'failed') failed = { names: pathNames(titles, file), lines: new DetailLines() };
        }
        return;
      }
      const broken = FILE_FAILED.exec(text);
      if (broken && broken[1] === broken[2]) {
        results.add({ id: broken[1]! }, 'failed', true);
        return;
      }
      const totals = TOTALS.exec(text);
      if (!totals) return;
      open = false;
      const said = { passed: 0, failed: 0, notRun: 0 };
      for (const item of totals[1]!.split(' | ')) {
        const m = /^(\d+) (passed|failed|skipped|todo)$/.exec(item.trim());
        if (m) said[m[2] === 'skipped' || m[2] === 'todo' ? 'notRun' : (m[2] as 'passed' | 'failed')] += Number(m[1]);
      }
      const total = Number(totals[2]);
      if (said.passed !== tally.passed || said.failed !== tally.failed || total !== tally.passed + tally.failed + tally.notRun) {
        problem ??=
          `vitest counted ${said.passed} passed and ${said.failed} failed of ${total} where its lines show ${tally.passed} and ${tally.failed} of ` +
          `${tally.passed + tally.failed + tally.notRun} (run vitest 3 with --reporter=verbose so that every test gets a line)`;
      }
    },
    finish(): LogReading | undefined {
      endFailed();
      if (!seen) return undefined;
      if (open) problem ??= 'the vitest run did not finish (its log has no "Tests" totals)';
      return problem ? { reader: VITEST_READER, why: problem } : results.reading(VITEST_READER);
    },
    failures: () => failures.record(),
  };
}
