/**
 * Whether a test run's map can be trusted, and if not, why, in words a
 * reviewer reads: a run that reached the time limit has no map (what it
 * printed before being killed is not a result), a parser that failed gave
 * none, and a parser that contradicts bugbench's own reading of the log gave a
 * false one. Checks that need such a run fail with this reason;
 * FAIL_TO_PASS is never computed from one.
 */
import { UnusableRunError } from '../errors.js';
import type { ParserTrust } from './check-types.js';
import { disagreementReason } from './parser-audit.js';
import type { RunRecord } from './test-run.js';

/** "timed out after 90 s in the buggy state", naming the run when the state has several ("buggy (run 3)"). */
export function timeoutReason(run: Pick<RunRecord, 'limitSec' | 'state' | 'label'>): string {
  const which = run.label !== run.state && run.label.startsWith(run.state) ? ` ("${run.label}")` : '';
  return `timed out after ${run.limitSec} s in the ${run.state} state${which}`;
}

export function runProblem(run: RunRecord): string | undefined {
  if (run.timedOut) return timeoutReason(run);
  if (run.parser.error) return `the parser failed on the "${run.label}" run: ${run.parser.error}`;
  if (run.audit.status === 'disagrees') return disagreementReason(run.label, run.audit);
  return undefined;
}

/** The run itself when its map can be trusted; else an UnusableRunError saying why. */
export function usable(run: RunRecord): RunRecord {
  const problem = runProblem(run);
  if (problem) throw new UnusableRunError(run.label, problem);
  return run;
}

/** How far the parser was checked over `runs` (every run the checks read). */
export function parserTrust(all: RunRecord[]): ParserTrust {
  const runs = [...new Map(all.map((r) => [r.label, r])).values()];
  const reader = runs.map((r) => r.audit.reader).find((name) => name !== undefined);
  if (runs.length === 0) return { status: 'unverified', reader, unverified: [] };
  const unverified = runs.flatMap((r) => (r.audit.status === 'unverified' ? [{ run: r.label, why: r.audit.why }] : []));
  const status = runs.some((r) => r.audit.status === 'disagrees') ? 'disagrees' : unverified.length > 0 ? 'unverified' : 'verified';
  return { status, reader, unverified };
}
