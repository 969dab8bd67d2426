/**
 * Reads pytest's short test summary, as `-rA` prints it at the end of a
 * session: one line per result ("PASSED tests/t.py::test_a", "FAILED
 * tests/t.py::test_b - AssertionError: …"), then the counts line ("==== 1
 * failed, 82 passed in 0.52s ===="). Only lines inside a summary count, so
 * what tests print (shown earlier, in the PASSES and FAILURES sections)
 * cannot pose as a result. A session is read only when its result lines add up
 * to its counts line; otherwise (pytest run without -rA, a session cut short,
 * a stray line in the summary) the log is in this format but unreadable, and
 * says why.
 *
 * A failing test's detail is its summary message with the "E   " lines of its
 * section in the FAILURES part ("____ test_name ____"), or with `--tb=native`
 * the exception that ends the section's Python traceback; pytest cuts summary
 * messages to the terminal's width, so a cut one gives way to the first of
 * those lines, which is whole.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { pytestNames } from './test-ids.js';
import type { LogOutcome, LogReader, LogReading } from './types.js';

export const PYTEST_READER = 'pytest -rA';

const SESSION_START = /^=+ test session starts =+$/;
const SUMMARY_HEADER = /^=+ short test summary info =+$/;
const RESULT = /^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED) (.+)$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;
const COUNTS = /^(?:=+ )?((?:\d+ [a-z]+)(?:, \d+ [a-z]+)*|no tests ran) in \d+(?:\.\d+)?s(?: \(\d+:\d{2}:\d{2}\))?(?: =+)?$/;
/** A log with more results than this is not read (it would not fit in memory by design). */
export const MAX_RESULTS = 200_000;

type Word = 'PASSED' | 'FAILED' | 'ERROR' | 'XFAIL' | 'XPASS';

interface Counts {
  passed: number;
  failed: number;
  errors: number;
  xfailed: number;
  xpassed: number;
}

interface Session {
  lines: { word: Word; id: string }[];
  counts: Counts;
}

/** The counts of a counts line ("1 failed, 82 passed, 2 errors"); words pytest does not list per test are ignored. */
export function parseCounts(text: string): Counts {
  const counts: Counts = { passed: 0, failed: 0, errors: 0, xfailed: 0, xpassed: 0 };
  for (const item of text.split(', ')) {
    const m = /^(\d+) ([a-z]+)$/.exec(item);
    if (!m) continue;
    const n = Number(m[1]);
    const word = m[2]!;
    if (word === 'passed') counts.passed = n;
    else if (word === 'failed') counts.failed = n;
    else if (word === 'error' || word === 'errors') counts.errors = n;
    else if (word === 'xfailed') counts.xfailed = n;
    else if (word === 'xpassed') counts.xpassed = n;
  }
  return counts;
}

/** Whether `text` can be a whole node id: parameters in brackets closed, no space outside them. */
function idLike(text: string): boolean {
  if (text === '') return false;
  return text.includes('[') ? text.endsWith(']') : !text.includes(' ');
}

/**
 * The node id at the start of a result line's rest. PASSED lines hold only the
 * id; the others may add " - message" (or, for XPASS, " reason"). The id is
 * the shortest prefix ending at a separator that reads as a whole id, so
 * "test_p[c - d] - AssertionError" gives "test_p[c - d]".
 */
export function resultId(word: string, rest: string): string {
  if (word === 'PASSED') return rest.trim();
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] !== ' ') continue;
    const candidate = rest.slice(0, i);
    if (idLike(candidate)) return candidate;
  }
  return rest.trim();
}

const OUTCOME: Record<Word, LogOutcome> = { PASSED: 'passed', XPASS: 'passed', FAILED: 'failed', ERROR: 'failed', XFAIL: 'xfailed' };

function tally(lines: Session['lines']): Counts {
  const counts: Counts = { passed: 0, failed: 0, errors: 0, xfailed: 0, xpassed: 0 };
  for (const { word } of lines) {
    if (word === 'PASSED') counts.passed++;
    else if (word === 'FAILED') counts.failed++;
    else if (word === 'ERROR') counts.errors++;
    else if (word === 'XFAIL') counts.xfailed++;
    else counts.xpassed++;
  }
  return counts;
}

/** Why a session's result lines do not add up to its counts line, or undefined. */
function mismatch(session: Session): string | undefined {
  const listed = tally(session.lines);
  const names: [keyof Counts, string][] = [
    ['passed', 'passed'],
    ['failed', 'failed'],
    ['errors', 'errors'],
    ['xfailed', 'xfailed'],
    ['xpassed', 'xpassed'],
  ];
  for (const [key, name] of names) {
    if (listed[key] !== session.counts[key]) {
      const hint = key === 'passed' && listed.passed === 0 ? ' (run pytest with -rA so that every result gets a line)' : '';
      return `the short test summary lists ${listed[key]} ${name} test(s) where pytest counted ${session.counts[key]}${hint}`;
    }
  }
  return undefined;
}

/** A failure section: its "E" lines, and the exception of its last Python traceback (`--tb=native`). */
interface Section {
  errors: DetailLines;
  exception: string[];
  /** Where a native traceback is: in its frames, in the exception after them, or neither. */
  native?: 'frames' | 'exception';
}

/** Failure sections and summary messages, read into details once the log ends. */
class FailureText {
  /** Each failure section, by its title ("test_y", "TestC.test_y[p]"). */
  private readonly sections = new Map<string, Section>();
  private readonly messages = new Map<string, string>();
  private section: Section | undefined;

  line(text: string): void {
    const header = SECTION.exec(text);
    if (header) {
      if (!this.sections.has(header[1]!)) this.sections.set(header[1]!, { errors: new DetailLines(), exception: [] });
      this.section = this.sections.get(header[1]!);
    } else if (/^={3,}/.test(text)) this.section = undefined;
    else if (this.section) this.sectionLine(this.section, text);
  }

  private sectionLine(section: Section, text: string): void {
    if (text.startsWith('E ')) section.errors.push(text.slice(1));
    else if (text === 'Traceback (most recent call last):') {
      // A chained exception starts another traceback: the last one is what the test died of.
      section.native = 'frames';
      section.exception = [];
    } else if (section.native === 'frames') {
      // Frames and their code are indented; the exception starts at the margin.
      if (text !== '' && !/^\s/.test(text)) {
        section.native = 'exception';
        section.exception.push(text);
      }
    } else if (section.native === 'exception') {
      // A blank line, or a captured-output header ("---- Captured stdout call ----"), ends it.
      if (text.trim() === '' || /^-{3,} /.test(text)) section.native = undefined;
      else section.exception.push(text);
    }
  }

  /** A summary line's message ("FAILED id - message"). */
  message(id: string, rest: string): void {
    const message = rest.slice(id.length).replace(/^ - /, '').trim();
    if (!this.messages.has(id)) this.messages.set(id, message);
  }

  details(): FailureDetails {
    const out = new FailureDetails();
    for (const [id, summary] of this.messages) {
      // Sections are headed by the test's name without its file.
      const section = this.sections.get(id.split('::').slice(1).join('.'));
      const errors = section ? (section.errors.lines.length > 0 ? section.errors.lines : new DetailLines().pushAll(section.exception).lines) : [];
      const cut = summary === '' || summary.endsWith('...');
      const message = cut && errors.length > 0 ? errors[0]! : summary;
      out.add(pytestNames(id), new DetailLines().pushAll([message, ...errors.filter((e) => e !== message)]).lines);
    }
    return out;
  }
}

export function pytestSummaryReader(): LogReader {
  const failureText = new FailureText();
  let seen = false;
  let started = false;
  let open: { lines: Session['lines']; stray?: string } | undefined;
  const sessions: Session[] = [];
  let problem: string | undefined;
  let total = 0;

  return {
    line(text) {
      failureText.line(text);
      if (SESSION_START.test(text)) {
        seen = started = true;
        return;
      }
      if (SUMMARY_HEADER.test(text)) {
        // A summary never closed by a counts line was printed by a test, not by pytest: drop it.
        seen = true;
        open = { lines: [] };
        return;
      }
      const counts = COUNTS.exec(text);
      if (counts) {
        seen = true;
        started = false;
        const session = { lines: open?.lines ?? [], counts: parseCounts(counts[1]!) };
        if (open?.stray) problem ??= `an unexpected line in the short test summary: ${JSON.stringify(open.stray.slice(0, 120))}`;
        problem ??= mismatch(session);
        sessions.push(session);
        open = undefined;
        return;
      }
      if (!open) return;
      const result = RESULT.exec(text);
      if (result) {
        if (result[1] === 'SKIPPED') return; // skips name a location, not a test
        const id = resultId(result[1]!, result[2]!);
        if (result[1] === 'FAILED' || result[1] === 'ERROR') failureText.message(id, result[2]!);
        if (++total > MAX_RESULTS) problem ??= `the log holds more than ${MAX_RESULTS} results`;
        else open.lines.push({ word: result[1] as Word, id });
      } else if (text !== '' && !text.startsWith('!')) {
        open.stray ??= text;
      }
    },
    finish(): LogReading | undefined {
      if (!seen) return undefined;
      if (open || started) problem ??= 'a pytest session did not finish (its log has no final counts line)';
      if (sessions.length === 0) problem ??= 'no pytest session finished';
      if (problem) return { reader: PYTEST_READER, why: problem };
      const results: Record<string, LogOutcome> = {};
      for (const [index, session] of sessions.entries()) {
        const mine: Record<string, LogOutcome> = {};
        // Within a session a test that passed and then errored in teardown has failed.
        for (const { word, id } of session.lines) {
          const outcome = OUTCOME[word];
          if (mine[id] !== 'failed') mine[id] = outcome;
        }
        for (const [id, outcome] of Object.entries(mine)) {
          if (index > 0 && results[id] !== undefined && results[id] !== outcome) {
            return { reader: PYTEST_READER, why: `test ${id} is ${results[id]} in one pytest session and ${outcome} in another` };
          }
          results[id] = outcome;
        }
      }
      const parts = Object.fromEntries(Object.keys(results).flatMap((id) => {
        const names = pytestNames(id);
        return names.parts ? [[id, names.parts]] : [];
      }));
      return Object.keys(parts).length > 0 ? { reader: PYTEST_READER, results, parts } : { reader: PYTEST_READER, results };
    },
    failures: () => failureText.details().record(),
  };
}
