/**
 * The view of a run's rollouts, built from the core's events by a pure
 * reducer — the same for a live run and for one read back from its
 * trajectories: per rollout its status, step, spend, time, its transcript
 * (streamed text, each tool call as its JSON arrives and then its input, each
 * tool's output whole up to a cap) and the verdicts of its checks.
 */
import { describeToolInput } from '../agent/describe.js';
import { describeWhere, type FinishReason, type RolloutEvent } from '../agent/events.js';
import type { CheckEvent } from '../bugs/check-types.js';
import type { CoreEvent } from '../pipeline/events.js';
import { tagOf } from '../pipeline/workbench-core.js';
import { CUT_OFF_STATUSES } from '../store/records.js';

/** Transcript entries kept per rollout (the oldest go first). */
export const TRANSCRIPT_LIMIT = 4000;
/** Lines of one tool output kept (its head and its tail). */
export const OUTPUT_LIMIT = 400;

export interface TranscriptLine {
  kind: 'text' | 'tool' | 'output' | 'info';
  text: string;
  callId?: string;
  step?: number;
  /** For a tool's output: all its lines (kept up to OUTPUT_LIMIT); `text` is then unused. */
  lines?: string[];
  error?: boolean;
}

export type RolloutStatus = 'waiting' | 'running' | FinishReason | 'no-bug' | 'interrupted';

export interface RolloutView {
  tag: string;
  status: RolloutStatus;
  step: number;
  costUsd: number;
  tokens: number;
  /** Some tokens were counted by bugbench: the server reported none. */
  estimated?: boolean;
  /** Wall clock when it started (ms), and how long it ran once finished. */
  startedAt: number | null;
  durationMs: number | null;
  lastAction: string;
  transcript: TranscriptLine[];
  checks: { name: string; verdict: string }[];
  checking: string | null;
  /** Where it runs ("task 0, node n1, engine e2"), when that is known. */
  where: string;
  bug?: { id: string; valid: boolean; status?: string; failedCheck: string | null };
  /** A solver attempt's result, once judged (its rollout makes no bug). */
  attempt?: { solved: boolean; status: string };
}

export interface RunView {
  /** Tells one run view made by newRunView from the next (a new live run), even before its run id is known. */
  serial?: number;
  image: string;
  strategy: string;
  policy: string;
  tags: string[];
  rollouts: Record<string, RolloutView>;
  focus: number;
  done: boolean;
  runId?: string;
  /** A run on a cluster: "Slurm job 123, 2 tasks". */
  cluster?: string;
  /** An interrupted or cancelled injection run that `R` resumes. */
  resumable?: boolean;
  error?: string;
}

/** The core's events a run view takes (a rollout event with the wall clock when it arrived), and the view's own. */
export type RunEvent =
  | (Extract<CoreEvent, { type: 'rollout' }> & { at?: number })
  | Extract<CoreEvent, { type: 'check' | 'bug' }>
  | { type: 'run-started'; runId: string }
  | { type: 'run-finished'; runId: string }
  | { type: 'run-failed'; message: string }
  | { type: 'focus'; delta: number }
  | { type: 'batch'; events: RunEvent[] };

export { tagOf };

export function emptyRollout(tag: string): RolloutView {
  return { tag, status: 'waiting', step: 0, costUsd: 0, tokens: 0, startedAt: null, durationMs: null, lastAction: '', transcript: [], checks: [], checking: null, where: '' };
}

let made = 0;

/** A run of `n` rollouts named r1…rn, or for solver attempts (`prefix` a) a1…an. */
export function newRunView(image: string, strategy: string, policy: string, n: number, prefix: 'r' | 'a' = 'r'): RunView {
  const tags = Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
  return { serial: ++made, image, strategy, policy, tags, rollouts: Object.fromEntries(tags.map((tag) => [tag, emptyRollout(tag)])), focus: 0, done: false };
}

/**
 * A stored run's view made live again for its resume: what ended stays, what did not waits for its rollout to
 * start again, and a bug whose checks were cut off loses their verdicts — the resume checks it again from the first.
 */
export function resumedRunView(stored: RunView): RunView {
  const again = (view: RolloutView): RolloutView => {
    if (view.status === 'interrupted' || view.status === 'cancelled' || view.status === 'running') return { ...emptyRollout(view.tag), where: view.where };
    // Until its new verdict arrives the row still names the bug.
    if (view.bug && CUT_OFF_STATUSES.some((s) => s === view.bug!.status)) return { ...view, bug: undefined, checks: [], checking: null, lastAction: view.bug.id };
    return view;
  };
  const rollouts = Object.fromEntries(Object.entries(stored.rollouts).map(([tag, view]) => [tag, again(view)]));
  return { ...stored, serial: ++made, rollouts, done: false, resumable: false, error: undefined };
}

/** An output's lines, its head and tail kept past the cap. */
function keptLines(output: string): string[] {
  const lines = output.replace(/\n$/, '').split('\n').filter((l) => !/^\[exit code \d+\]$/.test(l));
  if (lines.length <= OUTPUT_LIMIT) return lines;
  const half = OUTPUT_LIMIT / 2;
  return [...lines.slice(0, half), `[… ${lines.length - OUTPUT_LIMIT} lines not kept …]`, ...lines.slice(-half)];
}

/** Appends to a transcript in place (the caller owns the copy). */
function push(lines: TranscriptLine[], line: TranscriptLine): void {
  lines.push(line);
  if (lines.length > TRANSCRIPT_LIMIT) lines.splice(0, lines.length - TRANSCRIPT_LIMIT);
}

/** Puts `line` in place of the line at `at` and `more` right after it, in place. */
function insert(lines: TranscriptLine[], at: number, line: TranscriptLine, ...more: TranscriptLine[]): void {
  lines.splice(at, 1, line, ...more);
  if (lines.length > TRANSCRIPT_LIMIT) lines.splice(0, lines.length - TRANSCRIPT_LIMIT);
}

/**
 * One event on one rollout; `at` is the wall clock when it arrived (for elapsed times).
 * `owned`: the view's transcript is a copy made earlier in the same batch, so it may change in place.
 */
export function applyRolloutEvent(view: RolloutView, event: RolloutEvent, at = Date.now(), owned = false): RolloutView {
  switch (event.type) {
    case 'rollout-started':
      return { ...view, status: 'running', startedAt: at - event.t, where: describeWhere(event.where) };
    case 'step-started':
      return { ...view, step: event.step };
    case 'step-usage':
      return { ...view, costUsd: event.totalCostUsd, tokens: view.tokens + event.usage.inputTokens + event.usage.outputTokens, estimated: view.estimated || event.usage.estimated === true };
    default:
      break;
  }
  const lines = owned ? view.transcript : [...view.transcript];
  switch (event.type) {
    case 'text-delta': {
      const last = lines.at(-1);
      if (last?.kind === 'text' && last.step === event.step) lines[lines.length - 1] = { ...last, text: last.text + event.text };
      else push(lines, { kind: 'text', text: event.text, step: event.step });
      return { ...view, transcript: lines };
    }
    case 'tool-call-started':
      push(lines, { kind: 'tool', text: `▶ ${event.name} `, callId: event.callId, step: event.step });
      return { ...view, transcript: lines, lastAction: event.name };
    case 'tool-input-delta': {
      const at = lines.findLastIndex((l) => l.kind === 'tool' && l.callId === event.callId);
      if (at >= 0) lines[at] = { ...lines[at]!, text: lines[at]!.text + event.partialJson };
      return { ...view, transcript: lines };
    }
    case 'tool-call-finished': {
      const what = describeToolInput(event.name, event.input);
      const status = event.isError ? 'error' : event.exitCode !== undefined ? `exit ${event.exitCode}` : 'ok';
      const line: TranscriptLine = { kind: 'tool', text: `${event.isError ? '✗' : '✓'} ${event.name} ${what} → ${status} (${(event.durationMs / 1000).toFixed(1)} s)`, callId: event.callId, step: event.step, error: event.isError };
      const at = lines.findLastIndex((l) => l.kind === 'tool' && l.callId === event.callId);
      const output = keptLines(event.output);
      const result: TranscriptLine[] = output.some((l) => l.trim() !== '') ? [{ kind: 'output', text: '', lines: output, callId: event.callId, step: event.step, error: event.isError }] : [];
      // The output goes right under its own call: calls made together finish one after another, and a call
      // started after this one is already below it.
      if (at >= 0) insert(lines, at, line, ...result);
      else for (const each of [line, ...result]) push(lines, each);
      return { ...view, transcript: lines, lastAction: `${event.name} ${what.split('\n')[0]}` };
    }
    case 'retry':
      push(lines, { kind: 'info', text: `retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason}` });
      return { ...view, transcript: lines };
    case 'submitted':
      push(lines, { kind: 'info', text: `submitted ${event.files.join(', ')}` });
      return { ...view, transcript: lines };
    case 'error':
      push(lines, { kind: 'info', text: `error: ${event.message}`, error: true });
      return { ...view, transcript: lines };
    case 'finished':
      if (event.detail) push(lines, { kind: 'info', text: event.detail });
      // A rollout that found no bug says why in its row, as a stored run's does.
      return { ...view, status: event.reason, durationMs: event.durationMs, transcript: lines, ...(event.reason === 'no-bug' && event.detail ? { lastAction: event.detail } : {}) };
  }
}

function applyCheckEvent(view: RolloutView, event: CheckEvent): RolloutView {
  if (event.type === 'check-started') return { ...view, checking: event.check };
  if (event.type === 'check-finished') {
    return { ...view, checking: null, checks: [...view.checks, { name: event.result.name, verdict: event.result.verdict }] };
  }
  return view;
}

export function reduceRun(run: RunView, event: RunEvent): RunView {
  const update = (tag: string, change: (view: RolloutView) => RolloutView): RunView => {
    const view = run.rollouts[tag];
    return view ? { ...run, rollouts: { ...run.rollouts, [tag]: change(view) } } : run;
  };
  switch (event.type) {
    case 'batch': {
      // A flood of events costs one copy of each transcript per batch, not one per event.
      const owned = new Set<string>();
      let next = run;
      for (const e of event.events) {
        if (e.type !== 'rollout') {
          next = reduceRun(next, e);
          continue;
        }
        const tag = tagOf(e.rolloutId);
        const view = next.rollouts[tag];
        if (!view) continue;
        const changed = applyRolloutEvent(view, e.event, e.at, owned.has(tag));
        if (changed.transcript !== view.transcript) owned.add(tag);
        next = { ...next, rollouts: { ...next.rollouts, [tag]: changed } };
      }
      return next;
    }
    case 'rollout':
      return update(tagOf(event.rolloutId), (v) => applyRolloutEvent(v, event.event, event.at));
    case 'check':
      return update(tagOf(event.subject), (v) => applyCheckEvent(v, event.event));
    case 'bug':
      return update(tagOf(event.bug.rollout), (v) => ({
        ...v,
        checking: null,
        bug: { id: event.bug.id, valid: event.bug.valid, status: event.bug.status, failedCheck: event.bug.failedCheck },
      }));
    case 'run-started':
      return { ...run, runId: event.runId };
    case 'run-finished':
      return { ...run, done: true, runId: event.runId };
    case 'run-failed':
      return { ...run, done: true, error: event.message };
    case 'focus': {
      const last = run.tags.length - 1;
      return { ...run, focus: Math.min(last, Math.max(0, run.focus + event.delta)) };
    }
  }
}

/** What a run has done so far, counted honestly: a rollout is done once its bug has a verdict too. */
export function runProgress(run: RunView) {
  const views = run.tags.map((t) => run.rollouts[t]!);
  const ended = (v: RolloutView) => !['waiting', 'running'].includes(v.status);
  // Submitted and without a verdict yet: its checks (or a solver attempt's evaluation) are under way.
  const judging = (v: RolloutView) => v.status === 'submitted' && !v.bug && !v.attempt;
  const checking = views.filter(judging).length;
  return {
    total: views.length,
    running: views.filter((v) => v.status === 'running').length,
    checking,
    done: views.filter((v) => ended(v) && v.status !== 'cancelled' && v.status !== 'interrupted' && !judging(v)).length,
    cancelled: views.filter((v) => v.status === 'cancelled' || v.status === 'interrupted').length,
    // A duplicate passed its checks but is another bug's copy: it is not a new valid bug.
    valid: views.filter((v) => v.bug?.valid && v.bug.status !== 'duplicate').length,
    duplicates: views.filter((v) => v.bug?.status === 'duplicate').length,
    solved: views.filter((v) => v.attempt?.solved).length,
    attempts: views.filter((v) => v.attempt).length,
    broke: views.filter((v) => v.bug).length,
  };
}
