/**
 * What each failing test printed, read from a test log by bugbench's log
 * readers (log-readers/), each in its own format: go test, cargo, TAP, jest,
 * vitest, mocha, node, JUnit XML, pytest. The material a bug report is
 * written from, so a note never says more than the log does: a test whose
 * failure the log does not explain has "no detail in the log".
 */
import { NameIndex, readLogWithFailures } from './log-readers/index.js';

export interface FailureNote {
  test: string;
  /** The first line of the failure, or why there is none. */
  message: string;
  /** Up to a few more lines of the assertion or error. */
  details: string[];
}

export const NO_DETAIL = 'no detail in the log';
export const NO_RESULT = 'the log shows no result for it (it did not run, or it is gone)';

/** `tests` are named as the parser names them; each is found in the log by the components of its name (log-readers/name-match.ts). */
export function failureNotes(log: string, tests: string[]): FailureNote[] {
  const { reading, failures } = readLogWithFailures(log);
  const failed = new NameIndex();
  for (const [id, detail] of failures) failed.add(id, detail.parts);
  const shown = new NameIndex();
  for (const id of Object.keys({ ...reading?.results, ...reading?.optional })) shown.add(id, reading?.parts?.[id]);
  return tests.map((test) => {
    const ids = failed.resolve(test);
    const lines = ids.length === 1 ? failures.get(ids[0]!)!.lines : [];
    if (lines.length > 0) return { test, message: lines[0]!, details: lines.slice(1) };
    // Only a log read in full can say a test is not in it.
    const absent = reading?.results !== undefined && shown.resolve(test).length === 0;
    return { test, message: absent ? NO_RESULT : NO_DETAIL, details: [] };
  });
}

/** The notes as plain text, one test after another. */
export function formatFailureNotes(notes: FailureNote[], max = 12): string {
  const shown = notes.slice(0, max).map((n) => [`- ${n.test}: ${n.message}`, ...n.details.map((d) => `    ${d}`)].join('\n'));
  if (notes.length > max) shown.push(`- … and ${notes.length - max} more`);
  return shown.join('\n');
}
