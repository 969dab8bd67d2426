/**
 * The live view of an injection run, built from the core's events by a pure
 * reducer: one entry per rollout with its status, its spend, the tail of its
 * transcript (streamed text, tool calls as their JSON arrives, the end of each
 * tool's output) and the verdicts of its checks.
 */
import { describeToolInput, oneLine } from '../agent/describe.js';
import type { FinishReason, RolloutEvent } from '../agent/events.js';
import type { CheckEvent } from '../bugs/check-types.js';
import type { InjectedBug } from '../pipeline/inject.js';

export const TRANSCRIPT_LINES = 12;
const LINE_CHARS = 160;

export interface TranscriptLine {
  kind: 'text' | 'tool' | 'output' | 'info';
  text: string;
  callId?: string;
  step?: number;
}

export interface RolloutView {
  tag: string;
  status: 'waiting' | 'running' | FinishReason;
  step: number;
  costUsd: number;
  tokens: number;
  lastAction: string;
  transcript: TranscriptLine[];
  checks: { name: string; verdict: string }[];
  checking: string | null;
  bug?: { id: string; valid: boolean; failedCheck: string | null };
}

export interface RunView {
  image: string;
  strategy: string;
  policy: string;
  tags: string[];
  rollouts: Record<string, RolloutView>;
  focus: number;
  done: boolean;
  runId?: string;
  error?: string;
}

export type RunEvent =
  | { type: 'rollout-event'; rolloutId: string; event: RolloutEvent }
  | { type: 'check-event'; rolloutId: string; event: CheckEvent }
  | { type: 'bug'; bug: InjectedBug }
  | { type: 'run-finished'; runId: string }
  | { type: 'run-failed'; message: string }
  | { type: 'focus'; delta: number };

/** The short name of a rollout ("r3") or a solver attempt ("a3") from its id. */
export function tagOf(rolloutId: string): string {
  return /-([ra]\d+)$/.exec(rolloutId)?.[1] ?? rolloutId;
}

/** A run of `n` rollouts named r1…rn, or for solver attempts (`prefix` a) a1…an. */
export function newRunView(image: string, strategy: string, policy: string, n: number, prefix: 'r' | 'a' = 'r'): RunView {
  const tags = Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
  const rollouts = Object.fromEntries(
    tags.map((tag): [string, RolloutView] => [
      tag,
      { tag, status: 'waiting', step: 0, costUsd: 0, tokens: 0, lastAction: '', transcript: [], checks: [], checking: null },
    ]),
  );
  return { image, strategy, policy, tags, rollouts, focus: 0, done: false };
}

const clip = (text: string) => oneLine(text, LINE_CHARS);

function withTranscript(view: RolloutView, lines: TranscriptLine[]): RolloutView {
  return { ...view, transcript: lines.slice(-TRANSCRIPT_LINES) };
}

function applyRolloutEvent(view: RolloutView, event: RolloutEvent): RolloutView {
  const lines = [...view.transcript];
  switch (event.type) {
    case 'rollout-started':
      return { ...view, status: 'running' };
    case 'step-started':
      return { ...view, step: event.step };
    case 'text-delta': {
      const last = lines.at(-1);
      if (last?.kind === 'text' && last.step === event.step) lines[lines.length - 1] = { ...last, text: last.text + event.text };
      else lines.push({ kind: 'text', text: event.text, step: event.step });
      return withTranscript(view, lines);
    }
    case 'tool-call-started':
      lines.push({ kind: 'tool', text: `▶ ${event.name} `, callId: event.callId, step: event.step });
      return withTranscript({ ...view, lastAction: event.name }, lines);
    case 'tool-input-delta': {
      const at = lines.findIndex((l) => l.kind === 'tool' && l.callId === event.callId);
      if (at >= 0) lines[at] = { ...lines[at]!, text: lines[at]!.text + event.partialJson };
      return withTranscript(view, lines);
    }
    case 'tool-call-finished': {
      const what = clip(describeToolInput(event.name, event.input));
      const status = event.isError ? 'error' : event.exitCode !== undefined ? `exit ${event.exitCode}` : 'ok';
      const line: TranscriptLine = { kind: 'tool', text: `${event.isError ? '✗' : '✓'} ${event.name} ${what} → ${status}`, callId: event.callId, step: event.step };
      const at = lines.findIndex((l) => l.kind === 'tool' && l.callId === event.callId);
      if (at >= 0) lines[at] = line;
      else lines.push(line);
      const tail = event.output
        .split('\n')
        .filter((l) => l.trim() !== '' && !/^\[exit code \d+\]$/.test(l))
        .slice(-3);
      lines.push(...tail.map((t): TranscriptLine => ({ kind: 'output', text: clip(t), step: event.step })));
      return withTranscript({ ...view, lastAction: `${event.name} ${what}` }, lines);
    }
    case 'step-usage':
      return { ...view, costUsd: event.totalCostUsd, tokens: view.tokens + event.usage.inputTokens + event.usage.outputTokens };
    case 'retry':
      lines.push({ kind: 'info', text: `retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s: ${clip(event.reason)}` });
      return withTranscript(view, lines);
    case 'submitted':
      lines.push({ kind: 'info', text: `submitted ${event.files.join(', ')}` });
      return withTranscript(view, lines);
    case 'error':
      lines.push({ kind: 'info', text: `error: ${clip(event.message)}` });
      return withTranscript(view, lines);
    case 'finished':
      if (event.detail) lines.push({ kind: 'info', text: clip(event.detail) });
      return withTranscript({ ...view, status: event.reason }, lines);
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
    case 'rollout-event':
      return update(tagOf(event.rolloutId), (v) => applyRolloutEvent(v, event.event));
    case 'check-event':
      return update(tagOf(event.rolloutId), (v) => applyCheckEvent(v, event.event));
    case 'bug':
      return update(tagOf(event.bug.rollout), (v) => ({ ...v, bug: { id: event.bug.id, valid: event.bug.valid, failedCheck: event.bug.failedCheck } }));
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
