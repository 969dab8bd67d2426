import { describe, expect, it } from 'vitest';
import type { RolloutEvent, RolloutEventBody } from '../../src/agent/events.js';
import { newRunView, reduceRun, TRANSCRIPT_LINES, type RunView } from '../../src/ui/run-state.js';
import { initialState, reduce } from '../../src/ui/state.js';

let seq = 0;
const ev = (body: RolloutEventBody): RolloutEvent => ({ ...body, seq: seq++, t: 0 }) as RolloutEvent;
const feed = (run: RunView, ...bodies: RolloutEventBody[]) =>
  bodies.reduce((r, body) => reduceRun(r, { type: 'rollout-event', rolloutId: 'run-x-r2', event: ev(body) }), run);

describe('the run view', () => {
  it('builds a rollout transcript from streamed text, partial tool input and results', () => {
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
      { type: 'finished', reason: 'submitted', steps: 1, costUsd: 0.01, durationMs: 9 },
    );
    const view = run.rollouts.r2!;
    expect(view.transcript.map((l) => l.text)).toEqual(['Looking around.', '✓ bash ls → exit 0', 'b', 'c', 'd']);
    expect(view).toMatchObject({ status: 'submitted', step: 1, costUsd: 0.01, tokens: 15 });
  });

  it('keeps only the tail of a long transcript, and records checks and the bug', () => {
    let run = newRunView('img', 'history', 'offline', 1);
    for (let i = 0; i < 40; i++) run = reduceRun(run, { type: 'rollout-event', rolloutId: 'run-x-r1', event: ev({ type: 'error', message: `e${i}` }) });
    expect(run.rollouts.r1!.transcript).toHaveLength(TRANSCRIPT_LINES);
    run = reduceRun(run, { type: 'check-event', rolloutId: 'run-x-r1', event: { type: 'check-started', check: 'parser', index: 1 } });
    expect(run.rollouts.r1!.checking).toBe('parser');
    run = reduceRun(run, {
      type: 'check-event',
      rolloutId: 'run-x-r1',
      event: { type: 'check-finished', result: { name: 'parser', verdict: 'pass', reason: '', runs: [], durationMs: 1 } },
    });
    run = reduceRun(run, { type: 'bug', bug: { id: 'b1', rollout: 'run-x-r1', valid: true, status: 'valid', failedCheck: null, artifactDir: '', trajectory: '' } });
    expect(run.rollouts.r1).toMatchObject({ checking: null, checks: [{ name: 'parser', verdict: 'pass' }], bug: { id: 'b1', valid: true } });
    expect(reduceRun(run, { type: 'run-finished', runId: 'run-x' })).toMatchObject({ done: true, runId: 'run-x' });
  });
});

describe('the injection form', () => {
  const withImage = reduce(initialState, {
    type: 'images-loaded',
    images: [{ id: 'i', tag: 'img:1', repo: 'r', commit: 'c', created: '', sizeBytes: 0, bugs: 0, bugCounts: {}, testCommand: '' }],
  });
  it('cycles strategies, bounds the counts, and starts a run for the selected image', () => {
    let state = reduce(withImage, { type: 'go', screen: 'run' });
    expect(state.screen).toBe('run');
    state = reduce(state, { type: 'form', field: 'strategy', delta: -1 });
    expect(state.form.strategy).toBe('buginstruct');
    state = reduce(state, { type: 'form', field: 'n', delta: -10 });
    expect(state.form.n).toBe(1);
    state = reduce(state, { type: 'start-run' });
    expect(state.screen).toBe('rollouts');
    expect(state.run).toMatchObject({ image: 'img:1', strategy: 'buginstruct', tags: ['r1'] });
    // esc goes back along the way the user came, and never further than the first screen.
    state = reduce(state, { type: 'back' });
    expect(state.screen).toBe('run');
    state = reduce(reduce(state, { type: 'back' }), { type: 'back' });
    expect(state.screen).toBe('images');
  });
});

describe('the run screen layout', () => {
  it('fits the terminal: a window of rollouts around the focus and a shorter transcript', async () => {
    const { layout } = await import('../../src/ui/run-screen.js');
    expect(layout(48, 3, 0)).toEqual({ first: 0, listRows: 3, transcriptRows: 12 });
    const small = layout(24, 20, 10);
    expect(small.listRows).toBe(7);
    expect(small.first).toBe(7);
    expect(10 + small.listRows + small.transcriptRows).toBeLessThanOrEqual(24);
    expect(layout(24, 20, 19).first).toBe(13);
  });
});
