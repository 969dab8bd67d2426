/**
 * pytest's log, read two ways at once: by its short test summary under -rA
 * (pytest-summary.ts) and by its verbose lines under -v or -vv
 * (pytest-verbose.ts). A log either can read in full is read; when both can
 * (-v -rA), they must agree on every test, else the log is unread; so must
 * the verbose lines and the summary's FAILED and ERROR lines. When
 * neither can, the reason given is the verbose reader's if the log has
 * verbose lines, else the summary reader's (which says to add -rA). A
 * failing test's details come from the summary reader, which finds them in
 * the FAILURES section and the short summary pytest prints by default.
 */
import { pytestSummaryReader } from './pytest-summary.js';
import { pytestVerboseReader } from './pytest-verbose.js';
import type { LogReader, LogReading } from './types.js';

/** The first test on which two full readings differ, or undefined when they agree. */
function difference(a: LogReading, b: LogReading): string | undefined {
  const ids = new Set([...Object.keys(a.results!), ...Object.keys(b.results!)]);
  for (const id of ids) {
    if (a.results![id] !== b.results![id]) return `${id} (${a.results![id] ?? 'missing'} in the short summary, ${b.results![id] ?? 'missing'} in the verbose lines)`;
  }
  return undefined;
}

export function pytestReader(): LogReader {
  const summary = pytestSummaryReader();
  const verbose = pytestVerboseReader();
  return {
    line(text) {
      summary.line(text);
      verbose.line(text);
    },
    finish(): LogReading | undefined {
      const bySummary = summary.finish();
      const byLines = verbose.finish();
      if (bySummary?.results && byLines?.results) {
        const differs = difference(bySummary, byLines);
        return differs ? { reader: bySummary.reader, why: `pytest's short summary and its verbose lines disagree on ${differs}` } : bySummary;
      }
      if (bySummary?.results) return verbose.contradicted() ? { reader: bySummary.reader, why: byLines!.why! } : bySummary;
      return byLines ?? bySummary;
    },
    failures: () => summary.failures!(),
  };
}
