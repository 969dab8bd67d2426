/** A check report as JSON: what `bugbench check --json` prints and what the workspace keeps of every check. */
import type { CheckReport } from './check-types.js';

/** The documented JSON shape; `path` maps each log path (the store keeps them relative to the workspace). */
export function reportJson(report: CheckReport, path: (logPath: string) => string = (p) => p) {
  return {
    valid: report.valid,
    cancelled: report.cancelled,
    checks: report.checks.map((c) => ({
      name: c.name,
      verdict: c.verdict,
      reason: c.reason,
      durationMs: c.durationMs,
      runs: c.runs.map((r) => ({
        label: r.label,
        command: r.command,
        exitCode: r.exitCode,
        durationMs: r.durationMs,
        timedOut: r.timedOut,
        logPath: path(r.logPath),
        results: r.results,
        audit: r.audit,
        ...(r.reused ? { reused: true } : {}),
        ...(r.cpu ? { cpu: r.cpu } : {}),
        ...(r.sideBySide !== undefined ? { sideBySide: r.sideBySide } : {}),
      })),
    })),
    FAIL_TO_PASS: report.FAIL_TO_PASS,
    PASS_TO_PASS: report.PASS_TO_PASS,
    flaky: report.flaky ?? [],
    parser: report.parser,
    weakening: report.weakening,
  };
}

export type ReportJson = ReturnType<typeof reportJson>;
