/**
 * Reads mocha's spec reporter (its default): a tree of describe titles and
 * results, two spaces a level ("  math", "    ✔ adds (75ms)", "    2) throws",
 * "    - pending one"), then the counts ("  5 passing (9ms)", "  2 pending",
 * "  4 failing") and the numbered failures. Tests are named by test-ids.ts
 * (the describe titles and the test's joined by " > "; mocha does not name the
 * file); pending tests are not results, and a failed hook ('"before all" hook
 * for "x"') is an optional failure.
 *
 * The log is read only when the tree adds up to the counts and the failures
 * are numbered 1, 2, 3… in order. Mocha prints what tests log into the tree
 * itself: a printed line that looks like a result breaks the counts and leaves
 * the log unread, but one that looks like a describe title can change the path
 * of the tests after it (their own title, an alias, stays right). One mocha run
 * a log is read; a second leaves the log unread.
 *
 * A failed test's detail is its numbered failure after the counts ("  2)
 * math", "       throws:", then the error): the title lines up to the one
 * ending in ":" are left out, and the failure is matched to the test by its
 * number.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { pathNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const MOCHA_READER = 'mocha spec';

const PASSED = /^( +)✔ (.*?)(?: \(\d+ms\))?$/;
const FAILED = /^( +)(\d+)\) (.*)$/;
const PENDING = /^( +)- (.*)$/;
const GROUP = /^( +)(\S.*)$/;
const PASSING = /^ +(\d+) passing \([^)]+\)$/;
const MORE = /^ +(\d+) (pending|failing)$/;
const NUMBERED = /^ {2}(\d+)\) (.*)$/;
const HOOK = /^"(before|after) (all|each)" hook/;

export function mochaSpecReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  /** The names of the failure of each number in the tree; the numbered failure being read, and whether its title has ended. */
  const numbered = new Map<number, ReturnType<typeof pathNames>>();
  let failure: { number: number; titled: boolean; lines: DetailLines } | undefined;
  const endFailure = () => {
    const names = failure && numbered.get(failure.number);
    if (names) failures.add(names, failure!.lines.lines);
    failure = undefined;
  };
  let stack: string[] = [];
  const tally = { passing: 0, pending: 0, failing: 0 };
  let counts: { passing: number; pending: number; failing: number } | undefined;
  let summary: 'none' | 'open' | 'done' = 'none';
  let problem: string | undefined;

  const at = (indent: string, title: string): string[] => {
    const level = Math.max(0, indent.length / 2 - 1);
    stack = stack.slice(0, level);
    return [...stack, title];
  };

  return {
    line(text) {
      if (summary === 'open') {
        const more = MORE.exec(text);
        if (more) {
          counts![more[2] as 'pending' | 'failing'] = Number(more[1]);
          return;
        }
        summary = 'done';
      }
      const passing = PASSING.exec(text);
      if (passing) {
        if (summary !== 'none') problem ??= 'the log holds more than one mocha run';
        summary = 'open';
        counts = { passing: Number(passing[1]), pending: 0, failing: 0 };
        return;
      }
      if (summary !== 'none') {
        // The numbered failures and what follows them.
        const start = NUMBERED.exec(text);
        if (start) {
          endFailure();
          failure = { number: Number(start[1]), titled: start[2]!.endsWith(':'), lines: new DetailLines() };
        } else if (failure && !failure.titled) failure.titled = text.endsWith(':');
        else failure?.lines.push(text);
        return;
      }
      const pass = PASSED.exec(text);
      if (pass) {
        tally.passing++;
        results.add(pathNames(at(pass[1]!, pass[2]!)), 'passed');
        return;
      }
      const fail = FAILED.exec(text);
      if (fail) {
        if (Number(fail[2]) !== tally.failing + 1) problem ??= `mocha's failure ${fail[2]} comes where failure ${tally.failing + 1} should (a test may have printed it)`;
        tally.failing++;
        const names = pathNames(at(fail[1]!, fail[3]!));
        results.add(names, 'failed', HOOK.test(fail[3]!));
        numbered.set(Number(fail[2]), names);
        return;
      }
      const pending = PENDING.exec(text);
      if (pending) {
        tally.pending++;
        at(pending[1]!, pending[2]!);
        return;
      }
      const group = GROUP.exec(text);
      if (group) stack = [...at(group[1]!, group[2]!)];
    },
    finish(): LogReading | undefined {
      endFailure();
      if (!counts) return undefined;
      const { passing, pending, failing } = counts;
      if (passing !== tally.passing || pending !== tally.pending || failing !== tally.failing) {
        problem ??= `mocha counted ${passing} passing, ${pending} pending, ${failing} failing where its tree shows ${tally.passing}, ${tally.pending}, ${tally.failing}`;
      }
      return problem ? { reader: MOCHA_READER, why: problem } : results.reading(MOCHA_READER);
    },
    failures: () => failures.record(),
  };
}
