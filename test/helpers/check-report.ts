import { expect } from 'vitest';
import { CHECK_NAMES } from '../../src/bugs/check-types.js';
import { artifactPath } from './artifacts.js';
import { bugbench } from './cli.js';

/** The JSON of `bugbench check --json`, as far as the tests read it. */
export interface JsonReport {
  valid: boolean;
  checks: {
    name: string;
    verdict: string;
    reason: string;
    runs: { label: string; command: string; exitCode: number; durationMs: number; timedOut: boolean; logPath: string; results: Record<string, string>; audit: { status: string }; reused?: boolean; cpu?: { ms: number; cores: number }; sideBySide?: boolean }[];
  }[];
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  flaky: { id: string; flips: number; seen: string }[];
  parser: { status: string; reader?: string; unverified: { run: string; why: string }[] };
  weakening: { files: number; deletedTests: number; changedTests: number; suiteTests?: number; infrastructure: string[]; method: string } | null;
}

export async function checkJson(name: string, ...flags: string[]) {
  const result = await bugbench(['check', artifactPath(name), '--json', ...flags]);
  return { exitCode: result.exitCode, stderr: result.stderr, report: JSON.parse(result.stdout) as JsonReport };
}

export function verdicts(report: JsonReport): Record<string, string> {
  return Object.fromEntries(report.checks.map((c) => [c.name, c.verdict]));
}

export function check(report: JsonReport, name: string) {
  return report.checks.find((c) => c.name === name)!;
}

/** The report fails exactly `target`: every earlier check passes (or as `earlier` says) and every later one is skipped. */
export function expectFailsOnly(report: JsonReport, target: string, earlier: Record<string, string> = {}) {
  expect(report.valid).toBe(false);
  const index = CHECK_NAMES.indexOf(target as (typeof CHECK_NAMES)[number]);
  const expected = Object.fromEntries(CHECK_NAMES.map((n, i) => [n, i < index ? (earlier[n] ?? 'pass') : i === index ? 'fail' : 'skipped']));
  expect(verdicts(report)).toEqual(expected);
}
