/**
 * Holding the agent's parser to bugbench's own reading of the same log. Where
 * a reader knows the format, the parser must give every test the log shows
 * the result it shows, and no test the log does not show. Where no reader
 * knows it, the parser is trusted and the run says "unverified".
 *
 * How the parser names tests is the agent's choice: a name counts for the
 * test whose components it is made of (log-readers/name-match.ts), as long as
 * the match is one to one. So a disagreement is a result that differs, a test
 * the log shows and the parser leaves out (entries the reading marks optional
 * may be), a name the log has no test for, a name that could stand for
 * several tests, or a test the parser names twice.
 */
import { NameIndex, type LogOutcome, type LogReading } from './log-readers/index.js';
import type { TestMap, TestStatus } from './test-results.js';
import { unnamedDisagreement, unseenNote } from './unnamed-passes.js';

export interface Disagreement {
  /** The parser's name; a test's id where the parser leaves it out. */
  test: string;
  parser: TestStatus | 'missing';
  /** 'several': the name could stand for several of the log's tests. */
  log: LogOutcome | 'missing' | 'several';
  /** The tests a name could stand for (the first few, and one more when there are more), where it could stand for several. */
  candidates?: string[];
  /** The test of the log this name stands for, where another of the parser's names stands for it too. */
  twice?: { test: string; also: string };
}

export type ParserAudit =
  | { status: 'agrees'; reader: string; /** What the reader could not see, when it counted passes it could not name. */ unseen?: string }
  | { status: 'disagrees'; reader: string; disagreements: Disagreement[] }
  | { status: 'unverified'; reader?: string; why: string };

/** What a parser may say of a test the log shows with `outcome` (an expected failure may be left out or counted a pass, as SWE-bench does). */
const ALLOWED: Record<LogOutcome, (TestStatus | 'missing')[]> = {
  passed: ['passed'],
  failed: ['failed'],
  xfailed: ['missing', 'passed'],
};

const SHOWN_CANDIDATES = 3;

export function auditParser(parsed: TestMap, reading: LogReading | undefined): ParserAudit {
  if (!reading) return { status: 'unverified', why: 'no reader in bugbench knows the format of this log' };
  if (!reading.results) return { status: 'unverified', reader: reading.reader, why: reading.why ?? 'the log cannot be read in full' };
  const outcomes = new Map<string, LogOutcome>([...Object.entries(reading.optional ?? {}), ...Object.entries(reading.results)]);
  const index = new NameIndex();
  for (const id of outcomes.keys()) index.add(id, reading.parts?.[id]);
  const disagreements: Disagreement[] = [];
  /** The parser's name for each test of the log it names. */
  const named = new Map<string, string>();
  /** Tests a name of the parser could stand for, with others: not reported again as left out. */
  const blurred = new Set<string>();
  let unnamedPasses = 0;
  for (const [test, said] of Object.entries(parsed)) {
    const ids = index.resolve(test);
    if (ids.length === 0) {
      if (reading.unnamed && said === 'passed') unnamedPasses++;
      else disagreements.push({ test, parser: said, log: 'missing' });
    } else if (ids.length > 1) {
      for (const id of ids) blurred.add(id);
      disagreements.push({ test, parser: said, log: 'several', candidates: ids.sort().slice(0, SHOWN_CANDIDATES + 1) });
    } else {
      const id = ids[0]!;
      const shown = outcomes.get(id)!;
      const other = named.get(id);
      if (other !== undefined) disagreements.push({ test, parser: said, log: shown, twice: { test: id, also: other } });
      else named.set(id, test);
      if (other === undefined && !ALLOWED[shown].includes(said)) disagreements.push({ test, parser: said, log: shown });
    }
  }
  for (const [test, shown] of Object.entries(reading.results)) {
    if (!named.has(test) && !blurred.has(test) && !ALLOWED[shown].includes('missing')) disagreements.push({ test, parser: 'missing', log: shown });
  }
  if (reading.unnamed) disagreements.push(...unnamedDisagreement(reading.unnamed, unnamedPasses));
  disagreements.sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0));
  if (disagreements.length > 0) return { status: 'disagrees', reader: reading.reader, disagreements };
  return reading.unnamed ? { status: 'agrees', reader: reading.reader, unseen: unseenNote(reading.unnamed) } : { status: 'agrees', reader: reading.reader };
}

function describe(d: Disagreement): string {
  if (d.twice) return `${d.test}: the parser names ${d.twice.test} again (also as ${d.twice.also})`;
  const parser = d.parser === 'missing' ? 'the parser leaves it out' : `the parser says ${d.parser}`;
  if (d.log === 'several') return `${d.test}: ${parser}, but the name could stand for several tests of the log (${d.candidates!.slice(0, SHOWN_CANDIDATES).join(', ')}${d.candidates!.length > SHOWN_CANDIDATES ? ', …' : ''})`;
  const log = d.log === 'missing' ? 'the log does not show it' : `the log says ${d.log}`;
  return `${d.test}: ${parser}, ${log}`;
}

/** "the parser disagrees with bugbench's reading (pytest -rA) of the "buggy" run's log on 1 test(s): …" */
export function disagreementReason(label: string, audit: Extract<ParserAudit, { status: 'disagrees' }>, max = 5): string {
  const shown = audit.disagreements.slice(0, max).map(describe).join('; ');
  const more = audit.disagreements.length > max ? `; … (${audit.disagreements.length} in all)` : '';
  return `the parser disagrees with bugbench's reading (${audit.reader}) of the "${label}" run's log on ${audit.disagreements.length} test(s): ${shown}${more}`;
}
