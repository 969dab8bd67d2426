/**
 * A check report reduced to what the store keeps of it, and the bug status it
 * implies. Works on the report's JSON shape, so reports written by any version
 * (and the folders of a workspace being migrated) read the same.
 */
import type { BugStatus, CheckSummary } from './records.js';

export interface ReportShape {
  valid: boolean;
  cancelled?: boolean;
  checks: { name: string; verdict: string; reason: string }[];
  FAIL_TO_PASS?: string[];
  PASS_TO_PASS?: string[];
  flaky?: { id: string; flips: number }[];
  parser?: { status: string; reader?: string; unverified: { run: string; why: string }[] };
}

/** "TAP (node --test): original: …; buggy: …" when a known runner's reader could not read some logs; else null. */
export function parserFinding(report: ReportShape): string | null {
  const parser = report.parser;
  if (parser?.status !== 'unverified' || !parser.reader || parser.unverified.length === 0) return null;
  const finding = `${parser.reader}: ${parser.unverified.map((u) => `${u.run}: ${u.why}`).join('; ')}`;
  return finding.length > 500 ? `${finding.slice(0, 499)}…` : finding;
}

const LETTERS: Record<string, string> = { pass: 'p', fail: 'f', skipped: 's', cancelled: 'c' };

export function summariseReport(report: ReportShape, at: string, dir: string | null): CheckSummary {
  const failed = report.checks.find((c) => c.verdict === 'fail');
  const cancelled = !report.valid && !failed && (report.cancelled === true || report.checks.some((c) => c.verdict === 'cancelled') || report.checks.length < 9);
  const reason = report.valid
    ? `all ${report.checks.length} checks pass`
    : failed
      ? failed.reason
      : cancelled
        ? 'the checks were interrupted before a verdict'
        : 'not every check ran';
  return {
    valid: report.valid,
    cancelled,
    failedCheck: failed?.name ?? null,
    reason: reason.length > 500 ? `${reason.slice(0, 499)}…` : reason,
    verdicts: report.checks.map((c) => LETTERS[c.verdict] ?? '?').join(''),
    at,
    dir,
    failToPass: report.FAIL_TO_PASS?.length ?? 0,
    passToPass: report.PASS_TO_PASS?.length ?? 0,
    flaky: (report.flaky ?? []).map((f) => ({ id: f.id, flips: f.flips })),
    parserUnverified: parserFinding(report),
  };
}

/** The status a fresh verdict gives a bug. */
export function statusOf(summary: CheckSummary): BugStatus {
  if (summary.valid) return 'valid';
  return summary.cancelled ? 'cancelled' : 'invalid';
}
