/**
 * Holding the agent's parser to bugbench's own reading of the same log. Where
 * a reader knows the format, the parser must give every test the log shows
 * the result it shows, and no test the log does not show. Where no reader
 * knows it, the parser is trusted and the run says "unverified".
 */
import type { LogOutcome, LogReading } from './log-readers/index.js';
import type { TestMap, TestStatus } from './test-results.js';

export interface Disagreement {
  test: string;
  parser: TestStatus | 'missing';
  log: LogOutcome | 'missing';
}

export type ParserAudit =
  | { status: 'agrees'; reader: string }
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
  const log = reading.results;
  const ids = [...new Set([...Object.keys(log), ...Object.keys(parsed)])].sort();
  const disagreements: Disagreement[] = [];
  for (const test of ids) {
    const said = parsed[test] ?? 'missing';
    const shown = log[test] ?? 'missing';
    const fine = shown === 'missing' ? said === 'missing' : ALLOWED[shown].includes(said);
    if (!fine) disagreements.push({ test, parser: said, log: shown });
  }
  return disagreements.length > 0 ? { status: 'disagrees', reader: reading.reader, disagreements } : { status: 'agrees', reader: reading.reader };
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
