/** The nine consistency checks' names, verdicts, results and the events they emit while running. */
import type { OutputStream } from '../sandbox/sandbox.js';
import type { RunRecord } from './test-run.js';
import type { FlakyTest } from './evidence.js';
import type { WeakeningSummary } from './weakening.js';

export const CHECK_NAMES = [
  'test-files',
  'parser',
  'test-script',
  'determinism',
  'bug-scope',
  'bug-validity',
  'test-weakening',
  'inverse-mutation',
  'gold-patch',
] as const;

export type CheckName = (typeof CHECK_NAMES)[number];
export type Verdict = 'pass' | 'fail' | 'skipped' | 'cancelled';

export interface CheckResult {
  name: CheckName;
  verdict: Verdict;
  reason: string;
  runs: RunRecord[];
  durationMs: number;
}

export type CheckOutcome = Omit<CheckResult, 'name' | 'durationMs'>;

export type CheckEvent =
  | { type: 'check-started'; check: CheckName; index: number }
  | { type: 'run-started'; check: CheckName | 'evaluate'; label: string; command: string }
  | { type: 'run-output'; check: CheckName | 'evaluate'; label: string; stream: OutputStream; text: string }
  | { type: 'run-finished'; check: CheckName | 'evaluate'; run: RunRecord }
  | { type: 'check-finished'; result: CheckResult };

/** How far the agent's parser was checked against bugbench's own reading of the logs. */
export interface ParserTrust {
  /**
   * "verified": bugbench read every run's log itself and the parser agreed on
   * every test; "unverified": for some runs no reader could read the log, and
   * the parser was trusted there ("parser unverified"); "disagrees": the parser
   * contradicted a log (a check failed for it).
   */
  status: 'verified' | 'unverified' | 'disagrees';
  /** The reader that read the logs, e.g. "pytest -rA". */
  reader?: string;
  /** Runs whose logs were not read, and why. */
  unverified: { run: string; why: string }[];
}

export interface CheckReport {
  valid: boolean;
  /** The checks were interrupted before a verdict: neither valid nor invalid. */
  cancelled: boolean;
  checks: CheckResult[];
  FAIL_TO_PASS: string[];
  /** Without the flaky tests. */
  PASS_TO_PASS: string[];
  /** Tests that changed result between runs of one state, with their flips: in neither FAIL_TO_PASS nor PASS_TO_PASS. */
  flaky?: FlakyTest[];
  /** Set by every CheckSession report (optional only for reports made elsewhere). */
  parser?: ParserTrust;
  /** What test_weaken.diff deletes and changes; null when it could not be told. Set by every CheckSession report. */
  weakening?: WeakeningSummary | null;
}
