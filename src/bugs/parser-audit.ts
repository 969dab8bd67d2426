/**
 * Holding the agent's parser to bugbench's own reading of the same log. Where
 * a reader knows the format, the parser must give every test the log shows
 * the result it shows, and no test the log does not show. Where no reader
 * knows it, the parser is trusted and the run says "unverified". A test may
 * go by several names (see log-readers/test-ids.ts): the parser may use any
 * of them, and entries the reading marks optional may be left out.
 */
import { worstOutcome, type LogOutcome, type LogReading } from './log-readers/index.js';
import type { TestMap, TestStatus } from './test-results.js';
import { unnamedDisagreement, unseenNote } from './unnamed-passes.js';

export interface Disagreement {
  test: string;
  parser: TestStatus | 'missing';
  log: LogOutcome | 'missing';
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

export function auditParser(parsed: TestMap, reading: LogReading | undefined): ParserAudit {
  if (!reading) return { status: 'unverified', why: 'no reader in bugbench knows the format of this log' };
  if (!reading.results) return { status: 'unverified', reader: reading.reader, why: reading.why ?? 'the log cannot be read in full' };
  // Every name a test goes by (its id and its aliases), and the tests behind each.
  const outcomes = new Map<string, LogOutcome>();
  const byName = new Map<string, string[]>();
  const name = (alias: string, id: string) => {
    const ids = byName.get(alias);
    if (!ids) byName.set(alias, [id]);
    else if (!ids.includes(id)) ids.push(id);
  };
  for (const [id, outcome] of [...Object.entries(reading.optional ?? {}), ...Object.entries(reading.results)]) {
    outcomes.set(id, outcome);
    name(id, id);
    for (const alias of reading.aliases?.[id] ?? []) name(alias, id);
  }
  const disagreements: Disagreement[] = [];
  const covered = new Set<string>();
  let unnamedPasses = 0;
  for (const [test, said] of Object.entries(parsed)) {
    const ids = byName.get(test);
    if (!ids) {
      if (reading.unnamed && said === 'passed') unnamedPasses++;
      else disagreements.push({ test, parser: said, log: 'missing' });
      continue;
    }
    // A name several tests share stands for the worst of them.
    const shown = ids.map((id) => outcomes.get(id)!).reduce(worstOutcome);
    if (!ALLOWED[shown].includes(said)) disagreements.push({ test, parser: said, log: shown });
    for (const id of ids) covered.add(id);
  }
  for (const [test, shown] of Object.entries(reading.results)) {
    if (!covered.has(test) && !ALLOWED[shown].includes('missing')) disagreements.push({ test, parser: 'missing', log: shown });
  }
  if (reading.unnamed) disagreements.push(...unnamedDisagreement(reading.unnamed, unnamedPasses));
  disagreements.sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0));
  if (disagreements.length > 0) return { status: 'disagrees', reader: reading.reader, disagreements };
  return reading.unnamed ? { status: 'agrees', reader: reading.reader, unseen: unseenNote(reading.unnamed) } : { status: 'agrees', reader: reading.reader };
}

function describe(d: Disagreement): string {
  const parser = d.parser === 'missing' ? 'the parser leaves it out' : `the parser says ${d.parser}`;
  const log = d.log === 'missing' ? 'the log does not show it' : `the log says ${d.log}`;
  return `${d.test}: ${parser}, ${log}`;
}

/** "the parser disagrees with bugbench's reading (pytest -rA) of the "buggy" run's log on 1 test(s): …" */
export function disagreementReason(label: string, audit: Extract<ParserAudit, { status: 'disagrees' }>, max = 5): string {
  const shown = audit.disagreements.slice(0, max).map(describe).join('; ');
  const more = audit.disagreements.length > max ? `; … (${audit.disagreements.length} in all)` : '';
  return `the parser disagrees with bugbench's reading (${audit.reader}) of the "${label}" run's log on ${audit.disagreements.length} test(s): ${shown}${more}`;
}
