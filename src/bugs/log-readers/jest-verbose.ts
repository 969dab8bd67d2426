/**
 * Reads jest's --verbose output: for each test file a header ("PASS
 * test/a.test.js", "FAIL …") and a tree of its results, two spaces a level
 * ("  math", "    ✓ adds (2 ms)", "    ✕ throws", "  ○ skipped x", "  ✎ todo
 * y"), then the run's summary ("Test Suites: …" and "Tests: 3 failed, 1
 * skipped, 1 todo, 5 passed, 10 total"). Tests are named by test-ids.ts (file,
 * then the describe titles and the test's, joined by " > "); skipped and todo
 * tests are not results, and a file that fails to run ("● Test suite failed to
 * run") is an optional failure named by its path.
 *
 * A run is read only when its trees add up to its "Tests:" line, which counts
 * only right after a "Test Suites:" line. Jest prints what tests log before the
 * file's header, apart from the tree, so it cannot pose as a result; a
 * result-like line printed into a tree breaks the counts and leaves the log
 * unread. Without --verbose (several files) jest lists only failures: unread.
 * The log is jest's when it holds a "Test Suites:" line.
 *
 * A failed test's detail is its "● a › b" section under its file's tree: the
 * error and the values, without the code frame and stack.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { pathNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const JEST_READER = 'jest --verbose';

/** With colours on, jest pads the word (" PASS  test/a.test.js"). */
const HEADER = /^ ?(PASS|FAIL) +(\S.*?)(?: \(\d+(?:\.\d+)? m?s\))?$/;
const TEST = /^( +)(✓|✕|○|✎) (.*)$/;
const GROUP = /^( +)(\S.*)$/;
const SUITES = /^Test Suites: /;
const TESTS = /^Tests: +(.*)$/;
const DURATION = / \(\d+(?:\.\d+)? m?s\)$/;

type Tally = Record<'passed' | 'failed' | 'skipped' | 'todo', number>;

export function jestVerboseReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  /** The "●" section being read, with the names of its test. */
  let section: { names: ReturnType<typeof pathNames>; lines: DetailLines } | undefined;
  const endSection = () => {
    if (section) failures.add(section.names, section.lines.lines);
    section = undefined;
  };
  let seen = false;
  let file: string | undefined;
  let inTree = false;
  let stack: string[] = [];
  let tally: Tally = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  let open = false;
  let afterSuites = false;
  let problem: string | undefined;

  const closeRun = (counts: string) => {
    const said: Tally & { total: number } = { passed: 0, failed: 0, skipped: 0, todo: 0, total: 0 };
    for (const item of counts.split(', ')) {
      const m = /^(\d+) (passed|failed|skipped|todo|total)$/.exec(item.trim());
      if (m) said[m[2] as keyof typeof said] = Number(m[1]);
    }
    const listed = tally.passed + tally.failed + tally.skipped + tally.todo;
    if (said.passed !== tally.passed || said.failed !== tally.failed || said.skipped !== tally.skipped || said.todo !== tally.todo || said.total !== listed) {
      problem ??=
        `jest counted ${said.passed} passed, ${said.failed} failed, ${said.skipped} skipped, ${said.todo} todo of ${said.total} where its trees show ` +
        `${tally.passed}, ${tally.failed}, ${tally.skipped}, ${tally.todo} (run jest with --verbose so that every test gets a line)`;
    }
    tally = { passed: 0, failed: 0, skipped: 0, todo: 0 };
    open = false;
  };

  const treeLine = (text: string) => {
    const test = TEST.exec(text);
    const group = test ? undefined : GROUP.exec(text);
    const indent = (test ?? group)![1]!.length;
    const level = Math.max(0, indent / 2 - 1);
    stack = stack.slice(0, level);
    if (group) {
      stack[level] = group[2]!;
      return;
    }
    const [, , mark, rest] = test!;
    if (mark === '○') tally.skipped++;
    else if (mark === '✎') tally.todo++;
    else {
      tally[mark === '✓' ? 'passed' : 'failed']++;
      results.add(pathNames([...stack, rest!.replace(DURATION, '')], file), mark === '✓' ? 'passed' : 'failed');
    }
  };

  return {
    line(text) {
      const wasAfterSuites = afterSuites;
      afterSuites = false;
      const header = HEADER.exec(text);
      if (header || SUITES.test(text) || /^ {2}console\.\w+$/.test(text)) endSection();
      if (header) {
        open = inTree = true;
        file = header[2]!;
        stack = [];
        return;
      }
      if (inTree) {
        if (text === '  ● Test suite failed to run' && file) results.add({ id: file }, 'failed', true);
        if (!text.startsWith('  ● ') && text.trim() !== '' && (TEST.test(text) || GROUP.test(text))) {
          treeLine(text);
          return;
        }
        inTree = false;
      }
      if (file !== undefined && text.startsWith('  ● ')) {
        endSection();
        const title = text.slice(4);
        const names = title === 'Test suite failed to run' ? { id: file } : pathNames(title.split(' › '), file);
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
      if (!seen) return undefined;
      if (open) problem ??= 'the jest run did not finish (its log has no "Tests:" summary)';
      return problem ? { reader: JEST_READER, why: problem } : results.reading(JEST_READER);
    },
    failures: () => failures.record(),
  };
}
