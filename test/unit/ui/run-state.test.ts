import { describe, expect, it } from 'vitest';
import type { RolloutEvent, RolloutEventBody } from '../../../src/agent/events.js';
import { newRunView, OUTPUT_LIMIT, reduceRun, resumedRunView, runProgress, TRANSCRIPT_LIMIT, type RunView } from '../../../src/ui/run-state.js';
import { rolloutRow, rolloutsLayout } from '../../../src/ui/rollouts-screen.js';
import { wrap } from '../../../src/ui/line-fit.js';
import { transcriptRows } from '../../../src/ui/transcript.js';
import { initialState, reduce } from '../../../src/ui/state.js';

let seq = 0;
const ev = (body: RolloutEventBody, t = 0): RolloutEvent => ({ ...body, seq: seq++, t }) as RolloutEvent;
const feed = (run: RunView, ...bodies: RolloutEventBody[]) =>
  reduceRun(run, { type: 'batch', events: bodies.map((body) => ({ type: 'rollout' as const, rolloutId: 'run-x-r2', event: ev(body), at: 1_000_000 })) });

describe('the run view', () => {
  it('builds a rollout transcript from streamed text, partial tool input and whole results', () => {
    let run = newRunView('img', 'removal', 'offline', 2);
    run = feed(
      run,
      { type: 'rollout-started', rolloutId: 'run-x-r2', runId: 'run-x', role: 'injector', strategy: 'removal', policy: 'offline', model: 'm', image: 'img' },
      { type: 'step-started', step: 1 },
      { type: 'text-delta', step: 1, text: 'Looking ' },
      { type: 'text-delta', step: 1, text: 'around.' },
      { type: 'tool-call-started', step: 1, callId: 'c1', name: 'bash' },
      { type: 'tool-input-delta', step: 1, callId: 'c1', partialJson: '{"command": "l' },
    );
    expect(run.rollouts.r1!.status).toBe('waiting');
    expect(run.rollouts.r2!.transcript.map((l) => l.text)).toEqual(['Looking around.', '▶ bash {"command": "l']);
    run = feed(
      run,
      { type: 'tool-call-finished', step: 1, callId: 'c1', name: 'bash', input: { command: 'ls' }, output: 'a\nb\nc\nd\n[exit code 0]', isError: false, exitCode: 0, durationMs: 5 },
      { type: 'step-usage', step: 1, usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0.01, totalCostUsd: 0.01 },
      { type: 'finished', reason: 'submitted', steps: 1, costUsd: 0.01, durationMs: 9000 },
    );
    const view = run.rollouts.r2!;
    expect(view.transcript.map((l) => l.text)).toEqual(['Looking around.', '✓ bash ls → exit 0 (0.0 s)', '']);
    expect(view.transcript[2]!.lines).toEqual(['a', 'b', 'c', 'd']);
    expect(view).toMatchObject({ status: 'submitted', step: 1, costUsd: 0.01, tokens: 15, startedAt: 1_000_000, durationMs: 9000 });
  });

  it('says where a rollout runs once it starts there (cluster task, node, engine)', () => {
    let run = newRunView('img', 'removal', 'offline', 2);
    expect(run.rollouts.r2!.where).toBe('');
    run = feed(run, { type: 'rollout-started', rolloutId: 'run-x-r2', runId: 'run-x', role: 'injector', strategy: 'removal', policy: 'offline', model: 'm', image: 'img', where: { task: 1, node: 'n7', engine: 'e2' } });
    expect(run.rollouts.r2!.where).toBe('task 1, node n7, engine e2');
    expect(run.rollouts.r1!.where).toBe('');
  });

  it('keeps a long output by its head and tail, and only the last entries of a very long transcript', () => {
    let run = newRunView('img', 'history', 'offline', 2);
    const output = Array.from({ length: OUTPUT_LIMIT * 3 }, (_, i) => `line ${i}`).join('\n');
    run = feed(run, { type: 'tool-call-finished', step: 1, callId: 'c9', name: 'bash', input: { command: 'cat big' }, output, isError: false, exitCode: 0, durationMs: 1 });
    const kept = run.rollouts.r2!.transcript.at(-1)!.lines!;
    expect(kept).toHaveLength(OUTPUT_LIMIT + 1);
    expect(kept[OUTPUT_LIMIT / 2]).toBe(`[… ${OUTPUT_LIMIT * 2} lines not kept …]`);
    expect(kept.at(-1)).toBe(`line ${OUTPUT_LIMIT * 3 - 1}`);
    run = feed(run, ...Array.from({ length: TRANSCRIPT_LIMIT + 50 }, (_, i) => ({ type: 'error' as const, message: `e${i}` })));
    expect(run.rollouts.r2!.transcript).toHaveLength(TRANSCRIPT_LIMIT);
    expect(run.rollouts.r2!.transcript.at(-1)!.text).toBe(`error: e${TRANSCRIPT_LIMIT + 49}`);
  });

  it('counts a rollout done only once its bug has a verdict, and cancelled ones apart', () => {
    let run = newRunView('img', 'removal', 'offline', 3);
    const finish = (id: string, reason: 'submitted' | 'cancelled') =>
      reduceRun(run, { type: 'rollout', rolloutId: id, event: ev({ type: 'finished', reason, steps: 3, costUsd: 0, durationMs: 1 }) });
    run = finish('run-x-r1', 'submitted');
    expect(runProgress(run)).toMatchObject({ done: 0, checking: 1, cancelled: 0 });
    run = reduceRun(run, { type: 'bug', bug: { id: 'b1', rollout: 'run-x-r1', valid: true, status: 'valid', failedCheck: null, artifactDir: '', trajectory: '' } });
    run = finish('run-x-r2', 'cancelled');
    expect(runProgress(run)).toMatchObject({ total: 3, done: 1, checking: 0, cancelled: 1, valid: 1 });
  });
});

describe('transcript rows', () => {
  it('wrap long commands instead of cutting them, and fold long outputs until unfolded', () => {
    const command = `✓ bash ${'python3 -m pytest -rA tests/test_a.py '.repeat(4)}→ exit 0`;
    const lines = [
      { kind: 'tool' as const, text: command },
      { kind: 'output' as const, text: '', lines: Array.from({ length: 20 }, (_, i) => `out ${i}`) },
    ];
    const folded = transcriptRows(lines, 60, false);
    expect(folded.filter((r) => r.kind === 'tool').map((r) => r.text).join(' ').replace(/\s+/g, ' ')).toBe(command.replace(/\s+/g, ' ').trim());
    expect(folded.every((r) => [...r.text].length <= 60)).toBe(true);
    expect(folded.filter((r) => r.kind === 'output')).toHaveLength(6);
    expect(folded.find((r) => r.kind === 'fold')?.text).toBe('    … 14 more lines (f unfolds)');
    expect(transcriptRows(lines, 60, true).filter((r) => r.kind === 'output')).toHaveLength(20);
    expect(wrap('abc', 10)).toEqual(['abc']);
    expect(wrap('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});

describe("a transcript's tool results", () => {
  const finished = (callId: string, output: string): RolloutEventBody => ({ type: 'tool-call-finished', step: 1, callId, name: 'bash', input: { command: `echo ${callId}` }, output, isError: false, exitCode: 0, durationMs: 1 });
  const order = (run: RunView) => run.rollouts.r2!.transcript.map((l) => (l.kind === 'output' ? `out:${l.lines!.join()}` : `${l.kind}:${l.callId}`));

  it('come right under their own call when calls made together finish one after another, in either order', () => {
    const started = (callId: string): RolloutEventBody => ({ type: 'tool-call-started', step: 1, callId, name: 'bash' });
    const both = feed(newRunView('img', 'removal', 'offline', 2), { type: 'step-started', step: 1 }, started('a'), started('b'));
    expect(order(feed(both, finished('a', 'from a'), finished('b', 'from b')))).toEqual(['tool:a', 'out:from a', 'tool:b', 'out:from b']);
    expect(order(feed(both, finished('b', 'from b'), finished('a', 'from a')))).toEqual(['tool:a', 'out:from a', 'tool:b', 'out:from b']);
  });
});

describe('the rollouts screen layout', () => {
  it('fits the terminal: a window of rollouts around the focus, the rest for the transcript', () => {
    expect(rolloutsLayout(21, 3, 0)).toEqual({ first: 0, listRows: 3, transcriptRows: 15 });
    const small = rolloutsLayout(21, 20, 10);
    expect(small.listRows).toBe(6);
    expect(small.first).toBe(7);
    expect(3 + small.listRows + small.transcriptRows).toBe(21);
  });

  it('shows a rollout that found no bug as "no bug" with its reason, apart from errors', () => {
    const why = 'After 16 tries I have changes in 0 file(s), fewer than the 1 needed, so I stop here.';
    let run = newRunView('img', 'removal', 'offline', 2);
    const finish = (id: string, reason: 'no-bug' | 'error', detail: string) =>
      reduceRun(run, { type: 'rollout', rolloutId: id, event: ev({ type: 'finished', reason, steps: 24, costUsd: 0, durationMs: 9_000, detail }) });
    run = finish('run-x-r1', 'no-bug', why);
    run = finish('run-x-r2', 'error', 'the container stopped');
    expect(rolloutRow(run.rollouts.r1!, true, 'offline', 120)).toMatch(/^r1 +no bug \d+ +9s +After 16 tries I have changes in 0 file\(s\)/);
    expect(rolloutRow(run.rollouts.r2!, true, 'offline', 120)).toMatch(/^r2 +error \d+ /);
    expect(runProgress(run)).toMatchObject({ done: 2, cancelled: 0 });
  });

  it('shows a rollout in one line, without a cost for the offline policy', () => {
    const run = newRunView('img', 'removal', 'offline', 1);
    const view = { ...run.rollouts.r1!, status: 'running' as const, step: 4, startedAt: 0, tokens: 89005, costUsd: 0, lastAction: 'bash python3 -m pytest' };
    const row = rolloutRow(view, false, 'offline', 80, 83_000);
    expect(row).toHaveLength(80);
    expect(row).toMatch(/^r1 +step 4 +1m23 +bash python3 -m pytest/);
    expect(row).not.toMatch(/\$|tok|89005/);
    expect(rolloutRow({ ...view, costUsd: 0.0123, tokens: 15_200 }, false, 'anthropic', 80, 83_000)).toMatch(/\$0\.012 15\.2k/);
  });
});

describe('the injection form', () => {
  const withImage = reduce(initialState, {
    type: 'images-loaded',
    images: [{ id: 'i', tag: 'img:1', repo: 'r', commit: 'c', created: '', sizeBytes: 0, bugs: 0, bugCounts: {}, testCommand: '' }],
  });
  it('cycles strategies, refuses to start what is wrong, and starts a run for the selected image', () => {
    let state = reduce(withImage, { type: 'go', screen: 'run' });
    expect(state.screen).toBe('run');
    state = reduce(state, { type: 'form', key: { type: 'step', delta: -1 } });
    expect(state.form.strategy).toBe('buginstruct');
    // offline, a strategy that needs a model does not start
    expect(reduce(state, { type: 'start-run' }).screen).toBe('run');
    state = reduce(state, { type: 'form', key: { type: 'step', delta: -2 } });
    expect(state.form.strategy).toBe('direct');
    state = reduce(state, { type: 'form', key: { type: 'focus', delta: 1 } });
    for (let i = 0; i < 10; i++) state = reduce(state, { type: 'form', key: { type: 'step', delta: -1 } });
    expect(state.form.values.n).toBe('1');
    // two at a time for one bug runs, one at a time
    state = reduce(state, { type: 'start-run' });
    expect(state.screen).toBe('rollouts');
    expect(state.run).toMatchObject({ image: 'img:1', strategy: 'direct', tags: ['r1'] });
    // esc goes back along the way the user came, and never further than the first screen.
    state = reduce(state, { type: 'back' });
    expect(state.screen).toBe('run');
    state = reduce(reduce(state, { type: 'back' }), { type: 'back' });
    expect(state.screen).toBe('images');
  });

  it('resumes a run: a bug whose checks were cut off loses their verdicts, a judged bug keeps them (newcomer report, item 3)', () => {
    const stored = newRunView('img', 'removal', 'offline', 3);
    const verdicts = (v: string) => [...v].map((c, i) => ({ name: `check-${i}`, verdict: c === 'p' ? 'pass' : 'cancelled' }));
    stored.rollouts.r1 = { ...stored.rollouts.r1!, status: 'submitted', checks: verdicts('pppcccccc'), bug: { id: 'b-cut', valid: false, status: 'cancelled', failedCheck: null } };
    stored.rollouts.r2 = { ...stored.rollouts.r2!, status: 'submitted', checks: verdicts('ppppppppp'), bug: { id: 'b-ok', valid: true, status: 'valid', failedCheck: null } };
    stored.rollouts.r3 = { ...stored.rollouts.r3!, status: 'interrupted', step: 4 };
    const run = resumedRunView(stored);
    expect(run.rollouts.r1).toMatchObject({ status: 'submitted', checks: [], bug: undefined, lastAction: 'b-cut' });
    expect(run.rollouts.r2).toEqual(stored.rollouts.r2);
    expect(run.rollouts.r3).toMatchObject({ status: 'waiting', step: 0 });
    // The new nine come in alone.
    const check = (verdict: 'pass') => ({ type: 'check' as const, subject: 'run-x-r1', event: { type: 'check-finished' as const, result: { name: 'parser' as const, verdict, reason: '', runs: [], durationMs: 1 } } });
    expect(reduceRun(run, check('pass')).rollouts.r1!.checks).toHaveLength(1);
  });
});
