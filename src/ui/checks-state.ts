/**
 * The Checks screen's view state, as a pure reducer: the nine checks of one
 * bug — from its last report, or live while a session steps through them —
 * each with its runs (command, exit code, time, passed/failed counts, the
 * tests that changed state against the original run); the solver attempts
 * streaming like rollouts, with the solve rate and rewards; the higher-order
 * bugs made from the failed attempts, parent → attempt → child.
 */
import { CHECK_NAMES } from '../bugs/check-types.js';
import type { TestMap } from '../bugs/test-results.js';
import { newRunView, reduceRun, tagOf, type RunEvent, type RunView } from './run-state.js';

export interface RunSummary {
  label: string;
  command: string;
  exitCode: number;
  durationMs: number;
  timedOut: boolean;
  logPath: string;
  passed: number;
  failed: number;
  /** Tests whose result differs from the original run's: "test: passed → failed". */
  changed: string[];
}

export interface CheckLine {
  name: string;
  verdict: 'pass' | 'fail' | 'skipped' | 'cancelled' | 'pending' | 'running';
  reason: string;
  durationMs: number;
  runs: RunSummary[];
}

/** A run as reports and sessions give it. */
export interface RunLike {
  label: string;
  command: string;
  exitCode: number;
  durationMs: number;
  timedOut: boolean;
  logPath: string;
  results: TestMap;
}

export interface CheckLike {
  name: string;
  verdict: string;
  reason: string;
  durationMs: number;
  runs: RunLike[];
}

export function summariseRun(run: RunLike, original: TestMap | undefined): RunSummary {
  const statuses = Object.values(run.results);
  const changed: string[] = [];
  if (original && run.label !== 'original') {
    for (const test of new Set([...Object.keys(original), ...Object.keys(run.results)])) {
      if (original[test] !== run.results[test]) changed.push(`${test}: ${original[test] ?? 'missing'} → ${run.results[test] ?? 'missing'}`);
    }
  }
  return {
    label: run.label,
    command: run.command,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    timedOut: run.timedOut,
    logPath: run.logPath,
    passed: statuses.filter((s) => s === 'passed').length,
    failed: statuses.filter((s) => s === 'failed').length,
    changed: changed.sort(),
  };
}

/** The original run's results among some checks (the parser check ran it). */
export function originalResults(checks: CheckLike[]): TestMap | undefined {
  return checks.flatMap((c) => c.runs).find((r) => r.label === 'original')?.results;
}

export function checkLine(check: CheckLike, original: TestMap | undefined): CheckLine {
  return {
    name: check.name,
    verdict: check.verdict as CheckLine['verdict'],
    reason: check.reason,
    durationMs: check.durationMs,
    runs: check.runs.map((r) => summariseRun(r, original)),
  };
}

/** All nine, those not judged yet as pending (or running). */
export function allNine(lines: CheckLine[], running: string | null): CheckLine[] {
  return CHECK_NAMES.map(
    (name) => lines.find((l) => l.name === name) ?? { name, verdict: name === running ? 'running' : 'pending', reason: '', durationMs: 0, runs: [] },
  );
}

export interface HigherChild {
  id: string;
  attempt: string;
  solver: string;
  marks: string;
  status: string;
}

export interface ChecksState {
  bugId: string | null;
  /** When the shown report was recorded (a newer one replaces it). */
  checkedAt?: string;
  /** The store's solve and higher-order results shown (checks-stored.ts storedKey): newer ones replace them. */
  storedKey?: string;
  /** The checks judged so far (a stored report, or this session's). */
  lines: CheckLine[];
  /** Where the lines come from: the bug's last report, or a session stepped here. */
  source: 'report' | 'session' | 'none';
  running: string | null;
  busy: boolean;
  cursor: number;
  log: { title: string; path: string } | null;
  solve: { view: RunView; solveRate: number | null; injectReward: number | null; rewards: string; results: Record<string, AttemptResult> } | null;
  higher: { parent: string; children: HigherChild[]; skipped: SkippedAttempt[]; busy: boolean } | null;
  message: { text: string; error: boolean } | null;
  scroll: number;
}

/** A failed attempt that made no higher-order bug, and why. */
export interface SkippedAttempt {
  attempt: string;
  reason: string;
}

/** A judged solver attempt, by its tag (a1…): who solved, whether, its reward (equation 2), how many spec tests still fail. */
export interface AttemptResult {
  solver: string;
  status: string;
  solved: boolean;
  reward: number | null;
  failing: number;
}

export const initialChecks: ChecksState = {
  bugId: null,
  lines: [],
  source: 'none',
  running: null,
  busy: false,
  cursor: 0,
  log: null,
  solve: null,
  higher: null,
  message: null,
  scroll: 0,
};

export type ChecksEvent =
  /** `solve`, `higher`: what the store holds of the bug's solving (storedSolve, storedHigher); `storedKey` tells when that changes. */
  | { type: 'show-bug'; bugId: string; lines: CheckLine[]; checkedAt?: string; solve?: ChecksState['solve']; higher?: ChecksState['higher']; storedKey?: string }
  | { type: 'session-started' }
  | { type: 'check-started'; name: string }
  | { type: 'check-finished'; line: CheckLine }
  | { type: 'session-ended'; message: string; error: boolean }
  | { type: 'cursor'; delta: number }
  | { type: 'open-log'; title: string; path: string }
  | { type: 'close-log' }
  | { type: 'scroll'; delta: number; max: number }
  | { type: 'solve-started'; image: string; k: number; policy: string }
  | { type: 'solve-event'; event: RunEvent }
  | { type: 'solve-attempt'; id: string; result: AttemptResult }
  | { type: 'solve-done'; solveRate: number; injectReward: number }
  | { type: 'higher-started'; parent: string }
  | { type: 'higher-child'; child: HigherChild }
  | { type: 'higher-mark'; id: string; verdict: string }
  | { type: 'higher-done'; skipped: SkippedAttempt[]; statuses: Record<string, string> }
  | { type: 'message'; text: string; error: boolean };

const MARK: Record<string, string> = { pass: '✓', fail: '✗', skipped: '·', cancelled: '○' };

export function reduceChecks(state: ChecksState, event: ChecksEvent): ChecksState {
  switch (event.type) {
    case 'show-bug': {
      // The higher-order panel made here stays while moving between a parent and its children (with the reasons for attempts that made none);
      // otherwise the store's results show, made here or from the CLI.
      const family = state.higher && (state.higher.parent === event.bugId || state.higher.children.some((c) => c.id === event.bugId));
      const keepHigher = family && (state.higher!.busy || state.higher!.skipped.length > 0 || !event.higher);
      // A solve under way for this bug stays until it ends.
      const keepSolve = state.bugId === event.bugId && state.solve !== null && state.solve.solveRate === null;
      return {
        ...initialChecks,
        bugId: event.bugId,
        checkedAt: event.checkedAt,
        storedKey: event.storedKey,
        lines: event.lines,
        source: event.lines.length > 0 ? 'report' : 'none',
        higher: keepHigher ? state.higher : (event.higher ?? null),
        solve: keepSolve ? state.solve : (event.solve ?? null),
      };
    }
    case 'session-started':
      return { ...state, lines: [], source: 'session', busy: true, cursor: 0, log: null, message: null };
    case 'check-started':
      return { ...state, running: event.name };
    case 'check-finished': {
      const lines = [...state.lines.filter((l) => l.name !== event.line.name), event.line];
      return { ...state, lines, running: null, cursor: lines.length - 1 };
    }
    case 'session-ended':
      return { ...state, busy: false, running: null, message: { text: event.message, error: event.error } };
    case 'cursor':
      return { ...state, cursor: Math.min(CHECK_NAMES.length - 1, Math.max(0, state.cursor + event.delta)), log: null, scroll: 0 };
    case 'open-log':
      return { ...state, log: { title: event.title, path: event.path }, scroll: 0 };
    case 'close-log':
      return { ...state, log: null, scroll: 0 };
    case 'scroll':
      return { ...state, scroll: Math.min(Math.max(0, event.max), Math.max(0, state.scroll + event.delta)) };
    case 'solve-started':
      return { ...state, solve: { view: newRunView(event.image, 'solve', event.policy, event.k, 'a'), solveRate: null, injectReward: null, rewards: '', results: {} }, message: null };
    case 'solve-event':
      return state.solve ? { ...state, solve: { ...state.solve, view: reduceRun(state.solve.view, event.event) } } : state;
    case 'solve-attempt':
      return state.solve
        ? { ...state, solve: { ...state.solve, rewards: `${state.solve.rewards}${event.result.solved ? '+' : '−'}`, results: { ...state.solve.results, [tagOf(event.id)]: event.result } } }
        : state;
    case 'solve-done':
      return state.solve ? { ...state, solve: { ...state.solve, solveRate: event.solveRate, injectReward: event.injectReward, view: { ...state.solve.view, done: true } } } : state;
    case 'higher-started':
      return { ...state, higher: { parent: event.parent, children: [], skipped: [], busy: true }, message: null };
    case 'higher-child':
      return state.higher ? { ...state, higher: { ...state.higher, children: [...state.higher.children, event.child] } } : state;
    case 'higher-mark': {
      if (!state.higher) return state;
      const children = state.higher.children.map((c) => (c.id === event.id ? { ...c, marks: c.marks + (MARK[event.verdict] ?? '?') } : c));
      return { ...state, higher: { ...state.higher, children } };
    }
    case 'higher-done': {
      if (!state.higher) return state;
      const children = state.higher.children.map((c) => ({ ...c, status: event.statuses[c.id] ?? c.status }));
      return { ...state, higher: { ...state.higher, children, skipped: event.skipped, busy: false } };
    }
    case 'message':
      return { ...state, message: { text: event.text, error: event.error } };
  }
}
