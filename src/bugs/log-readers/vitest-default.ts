/**
 * Reads vitest's default reporter as vitest 1 to 4 print it when the output
 * is not a terminal: after " RUN  v3.2.4 /repo", one line a test file with
 * its counts (" ✓ test/a.test.ts (3 tests) 5ms", " ❯ test/b.test.ts (4 tests |
 * 1 failed | 1 skipped) 7ms", " ❯ test/c.test.ts (0 test)"), under a failed
 * file some lines of its tests (vitest 1 and 2: "   ❯ b > sub" and "→"
 * lines; 3.0 and 3.1: "   × b > sub 2ms"; 3.2 and later: the file's whole
 * tree, titles without their describe blocks), then the errors, one " FAIL
 * test/b.test.ts > suite > test" block a failed test under "Failed Tests N",
 * and the totals (" Test Files  1 failed | 1 passed (2)", "      Tests  1
 * failed | 6 passed (7)").
 *
 * Failed tests are named by their FAIL lines, as vitest-verbose.ts names
 * them (file first, then the titles, joined by " > "); passes are counted,
 * not named (a reading's `unnamed`): no line names them whole. A file that
 * fails to load (" FAIL  test/c.test.ts [ test/c.test.ts ]" under "Failed
 * Suites") is an optional failure named by its path.
 *
 * A run is read only when it all adds up: its file lines to its totals, and
 * its FAIL lines to its failed count. A file line a test printed breaks
 * that and leaves the log unread. A log with a verbose reporter's lines ("
 * ✓ test/a.test.ts > adds") is vitest-verbose.ts's, and this reader leaves it
 * alone.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { pathNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const VITEST_DEFAULT_READER = 'vitest (default reporter)';

const START = /^ RUN {2}v\d+\.\d+\.\d+/;
export const VITEST_FILE = /^ (✓|❯|×|↓) (\S+) \((\d+) tests?((?: \| \d+ \w+)*)\)(?: \d+(?:\.\d+)?m?s)?$/;
/** A verbose reporter's test line: then the log is vitest-verbose.ts's. */
const VERBOSE_TEST = /^ (✓|×|↓|□) \S.*? > /;
const BANNER = /^⎯+ Failed (Tests|Suites) (\d+) ⎯+$/;
const FAIL = /^ FAIL {2}(\S.*)$/;
const SEPARATOR = /^⎯{8,}/;
const TOTALS = /^ +Tests {2}(.+) \((\d+)\)$/;

export function vitestDefaultReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let block: { names: ReturnType<typeof pathNames>; lines: DetailLines } | undefined;
  const endBlock = () => {
    if (block) failures.add(block.names, block.lines.lines);
    block = undefined;
  };
  let files = 0;
  let verbose = false;
  let open = false;
  let section: 'Tests' | 'Suites' | undefined;
  let run = { tests: 0, failed: 0, named: new Set<string>() };
  let passed = 0;
  let problem: string | undefined;

  const closeRun = (counts: string, total: number) => {
    const said: Record<string, number> = {};
    for (const item of counts.split(' | ')) {
      const m = /^(\d+) (\w+)$/.exec(item.trim());
      if (m) said[m[2]!] = Number(m[1]);
    }
    const failed = said.failed ?? 0;
    if (total !== run.tests || failed !== run.failed) {
      problem ??= `vitest counted ${failed} failed of ${total} where its file lines show ${run.failed} of ${run.tests}`;
    } else if (failed !== run.named.size) {
      problem ??= `vitest counted ${failed} failed test(s) where its log names ${run.named.size} (its "FAIL" lines)`;
    }
    passed += said.passed ?? 0;
    run = { tests: 0, failed: 0, named: new Set() };
    open = false;
    section = undefined;
  };

  return {
    line(text) {
      if (START.test(text)) {
        endBlock();
        if (open) problem ??= 'a vitest run started before the last one ended';
        open = true;
        section = undefined;
        run = { tests: 0, failed: 0, named: new Set() };
        return;
      }
      if (VERBOSE_TEST.test(text)) verbose = true;
      if (!open) return;
      const file = VITEST_FILE.exec(text);
      if (file) {
        files++;
        run.tests += Number(file[3]);
        run.failed += Number(/\| (\d+) failed/.exec(file[4]!)?.[1] ?? 0);
        return;
      }
      const banner = BANNER.exec(text);
      if (banner) {
        endBlock();
        section = banner[1] as 'Tests' | 'Suites';
        return;
      }
      const fail = section ? FAIL.exec(text) : null;
      if (fail) {
        endBlock();
        const path = fail[1]!;
        const loadFailure = /^(\S+) \[ (\S+) \]$/.exec(path);
        if (loadFailure && loadFailure[1] === loadFailure[2]) {
          results.add({ id: loadFailure[1]! }, 'failed', true);
          return;
        }
        const [name, ...titles] = path.split(' > ');
        const names = pathNames(titles, name);
        if (section === 'Suites') results.add(names, 'failed', true);
        else if (!run.named.has(names.id)) {
          run.named.add(names.id);
          results.add(names, 'failed');
        }
        block = { names, lines: new DetailLines() };
        return;
      }
      if (SEPARATOR.test(text)) {
        endBlock();
        return;
      }
      block?.lines.push(text);
      const totals = TOTALS.exec(text);
      if (totals) {
        endBlock();
        closeRun(totals[1]!, Number(totals[2]));
      }
    },
    finish(): LogReading | undefined {
      endBlock();
      if (files === 0 || verbose) return undefined;
      if (open) problem ??= 'the vitest run did not finish (its log has no "Tests" totals)';
      if (problem) return { reader: VITEST_DEFAULT_READER, why: problem };
      const reading = results.reading(VITEST_DEFAULT_READER);
      if (passed > 0 && reading.results) {
        reading.unnamed = { passed, why: "vitest's default reporter names only the failed tests (run vitest with --reporter=verbose to name every test)" };
      }
      return reading;
    },
    failures: () => failures.record(),
  };
}
