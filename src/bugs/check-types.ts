/** The nine consistency checks' names, verdicts, results and the events they emit while running. */
import type { OutputStream } from '../sandbox/sandbox.js';
import type { RunRecord } from './test-run.js';

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

export interface CheckReport {
  valid: boolean;
  /** The checks were interrupted before a verdict: neither valid nor invalid. */
  cancelled: boolean;
  checks: CheckResult[];
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
}
