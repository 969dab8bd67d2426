/**
 * Reads pytest's verbose lines, as `-v` and `-vv` print them while the tests
 * run, with or without -rA: one line a result ("tests/t.py::test_a PASSED
 * [ 50%]", "tests/t.py::test_p[a b] SKIPPED (reason)", without the percentage
 * under -s or console_output_style=classic, "[ 1/10]" under "count"), and
 * pytest-xdist's form ("[gw0] [ 50%] PASSED tests/t.py::test_a", "[gw1] PASSED
 * …" in older xdist). Test ids are pytest's node ids as printed; a test that
 * passed and then errored in teardown has failed; skipped tests are not
 * results; XFAIL is an expected failure and XPASS a pass.
 *
 * Only the lines between "test session starts" and pytest's first section
 * (ERRORS, FAILURES, PASSES, warnings summary, the short summary) count, so
 * what tests print under those sections cannot pose as a result. A session is
 * read only when its lines add up, word by word, to its final counts line
 * (the last one before the next session or the end of the log, so a counts
 * line a test printed earlier does not end it): a log cut short, a run
 * without -v (its dots name no test), or a printed line that breaks a result
 * line (under -s) leaves the log unread, with the reason. A collection error
 * has no verbose line: it counts when the short summary (which pytest prints
 * by default for failures and errors) names it, as the failure of its path.
 * Every FAILED or ERROR line of that summary must name a test the verbose
 * lines show failing.
 */
import { resultId } from './pytest-summary.js';
import { MAX_TESTS, pytestNames, ResultSet } from './test-ids.js';
import type { LogOutcome, LogReader, LogReading } from './types.js';

export const PYTEST_VERBOSE_READER = 'pytest -v';

const SESSION_START = /^=+ test session starts =+$/;
const SECTION = /^=+ .+ =+$/;
const SUMMARY_HEADER = /^=+ short test summary info =+$/;
const COUNTS = /^(?:=+ )?((?:\d+ [a-z]+)(?:, \d+ [a-z]+)*|no tests ran) in \d+(?:\.\d+)?(?:s| seconds)(?: \(\d+:\d{2}:\d{2}\))?(?: =+)?$/;
const WORDS = ['PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'XFAIL', 'XPASS'] as const;
type Word = (typeof WORDS)[number];
/** What may follow the word on a verbose line: a reason in parentheses, then the progress. */
const TAIL = /^(?: \(.*\))?(?:\s+\[\s*\d+(?:%|\/\d+)\])?\s*$/;
const XDIST = /^\[gw\d+\] (?:\[\s*\d+%\] )?(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S.*?)\s*$/;
const SUMMARY_RESULT = /^(FAILED|ERROR) (.+)$/;

const OUTCOME: Partial<Record<Word, LogOutcome>> = { PASSED: 'passed', XPASS: 'passed', FAILED: 'failed', ERROR: 'failed', XFAIL: 'xfailed' };
/** The word of each result line, by the word of the counts line that counts it. */
const COUNTED: Record<Word, string> = { PASSED: 'passed', FAILED: 'failed', ERROR: 'errors', SKIPPED: 'skipped', XFAIL: 'xfailed', XPASS: 'xpassed' };

/** Whether `text` can be a whole node id: parameters in brackets closed, no space outside them. */
function idLike(text: string): boolean {
  return text !== '' && (text.includes('[') ? text.endsWith(']') : !text.includes(' '));
}

/** A verbose result line's word and node id: the first " WORD" after a whole id, followed only by a reason and the progress. */
export function verboseResult(text: string): { word: Word; id: string } | undefined {
  const xdist = XDIST.exec(text);
  if (xdist) return idLike(xdist[2]!) ? { word: xdist[1] as Word, id: xdist[2]! } : undefined;
  for (let at = text.indexOf(' '); at > 0; at = text.indexOf(' ', at + 1)) {
    const id = text.slice(0, at);
    if (!id.includes('::') || !idLike(id)) continue;
    const word = WORDS.find((w) => text.startsWith(w, at + 1));
    if (word && TAIL.test(text.slice(at + 1 + word.length))) return { word, id };
  }
  return undefined;
}

/** The counts of a counts line, by word ("error" and "errors" alike); "no tests ran" counts nothing. */
function parseAllCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of text.split(', ')) {
    const m = /^(\d+) ([a-z]+)$/.exec(item);
    if (m) counts.set(m[2] === 'error' ? 'errors' : m[2]!, Number(m[1]));
  }
  return counts;
}

interface Session {
  lines: { word: Word; id: string }[];
  /** The last counts line seen since the session started, with the short summary that came right before it. */
  end?: { counts: string; summary: { word: string; id: string }[] | undefined };
}

/** Why a session cannot be read, or its results. */
function readSession(session: Session): string | Map<string, LogOutcome> {
  if (!session.end) return 'a pytest session did not finish (its log has no final counts line)';
  const said = parseAllCounts(session.end.counts);
  const outcomes = new Map<string, LogOutcome>();
  const listed = new Map<string, number>();
  const count = (word: Word) => listed.set(COUNTED[word], (listed.get(COUNTED[word]) ?? 0) + 1);
  for (const { word, id } of session.lines) {
    count(word);
    const outcome = OUTCOME[word];
    if (outcome && outcomes.get(id) !== 'failed') outcomes.set(id, outcome);
  }
  for (const { word, id } of session.end.summary ?? []) {
    if (outcomes.has(id)) {
      if (outcomes.get(id) !== 'failed') return `the short test summary says ${word} for ${id}, which the verbose lines show ${outcomes.get(id)}`;
    } else if (word === 'ERROR' && !id.includes('::')) {
      count('ERROR'); // A file that failed to collect.
      outcomes.set(id, 'failed');
    } else return `the short test summary names ${id}, which no verbose line shows`;
  }
  for (const key of new Set([...Object.values(COUNTED)])) {
    if ((listed.get(key) ?? 0) !== (said.get(key) ?? 0)) {
      return `the verbose lines show ${listed.get(key) ?? 0} ${key} where pytest counted ${said.get(key) ?? 0}`;
    }
  }
  for (const key of said.keys()) if (key === 'rerun') return 'pytest reran tests (pytest-rerunfailures), whose verbose lines this reader does not know';
  return outcomes;
}

/** The verbose reader, which also tells whether its lines contradict the short summary's FAILED and ERROR lines. */
export function pytestVerboseReader(): LogReader & { contradicted(): boolean } {
  const sessions: Session[] = [];
  let session: Session | undefined;
  let inProgress = false;
  let summary: { word: string; id: string }[] | undefined;
  let results = 0;
  let contradicted = false;

  return {
    contradicted: () => contradicted,
    line(text) {
      if (SESSION_START.test(text)) {
        session = { lines: [] };
        sessions.push(session);
        inProgress = true;
        summary = undefined;
        return;
      }
      if (!session) return;
      const counts = COUNTS.exec(text);
      if (counts) {
        session.end = { counts: counts[1]!, summary };
        inProgress = false;
        summary = undefined;
        return;
      }
      if (SUMMARY_HEADER.test(text)) summary = [];
      else if (SECTION.test(text)) summary = undefined;
      else if (summary) {
        const m = SUMMARY_RESULT.exec(text);
        if (m) summary.push({ word: m[1]!, id: resultId(m[1]!, m[2]!) });
      }
      if (SECTION.test(text) || text.startsWith('___')) inProgress = false;
      if (!inProgress) return;
      const result = verboseResult(text);
      if (result && ++results <= MAX_TESTS) session.lines.push(result);
    },
    finish(): LogReading | undefined {
      // A log is this reader's only when it holds a verbose result line.
      if (results === 0) return undefined;
      if (results > MAX_TESTS) return { reader: PYTEST_VERBOSE_READER, why: `the log holds more than ${MAX_TESTS} results` };
      const set = new ResultSet();
      const seen = new Map<string, LogOutcome>();
      for (const s of sessions) {
        const read = readSession(s);
        if (typeof read === 'string') {
          contradicted = read.startsWith('the short test summary');
          return { reader: PYTEST_VERBOSE_READER, why: read };
        }
        for (const [id, outcome] of read) {
          if (seen.has(id) && seen.get(id) !== outcome) {
            return { reader: PYTEST_VERBOSE_READER, why: `test ${id} is ${seen.get(id)} in one pytest session and ${outcome} in another` };
          }
          seen.set(id, outcome);
          set.add(pytestNames(id), outcome);
        }
      }
      return set.reading(PYTEST_VERBOSE_READER);
    },
  };
}
