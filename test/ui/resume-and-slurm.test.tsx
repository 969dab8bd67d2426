/**
 * The workbench starts runs through the core's one entry, as the CLI does
 * (issue 32, item 2): a run marked resumable on Rollouts goes on with `R`
 * (a resume, live from where its record left it), and the Run form's engine
 * row sends a run to Slurm. A real store; the core's start is a stand-in
 * that records what it was asked and plays the run's events.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RolloutEvent, RolloutEventBody } from '../../src/agent/events.js';
import type { Report } from '../../src/pipeline/events.js';
import type { InjectResult } from '../../src/pipeline/inject.js';
import type { InjectionStart } from '../../src/pipeline/start-injection.js';
import type { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { renderIn } from '../helpers/terminal.js';
import { coreOf, putRun, putTrajectory, workspace } from '../helpers/workspace.js';

const SIZE = { columns: 100, rows: 30 };
const DOWN = '\u001B[B';
const RIGHT = '\u001B[C';

let term: ReturnType<typeof renderIn> | undefined;
afterEach(() => term?.unmount());

// eslint-disable-next-line no-control-regex
const frame = () => term!.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 50 });

/**
 * A start that records what it was asked, plays one line of text on `rollout` of its run, and finishes once `ended`
 * resolves — on a recorded run, writing what the core would: the rollout's trajectory and the run finished.
 */
function scriptedStart(run: { id: string; tag: string }, seen: InjectionStart[], store?: Store, ended?: Promise<void>) {
  return async (start: InjectionStart, _deps: unknown, report: Report): Promise<InjectResult> => {
    seen.push(start);
    const runId = run.id;
    report({ type: 'run-started', runId, kind: 'inject' });
    const rolloutId = `${runId}-${run.tag}`;
    const events: RolloutEventBody[] = [
      { type: 'rollout-started', rolloutId, runId, role: 'injector', strategy: 'removal', policy: 'offline', model: 'offline/removal', image: 'bugbench/repo-ratekit:latest' },
      { type: 'step-started', step: 1 },
      { type: 'text-delta', step: 1, text: `rollout ${run.tag} goes on` },
    ];
    events.forEach((body, i) => report({ type: 'rollout', rolloutId, event: { ...body, seq: i + 1, t: i } as RolloutEvent }));
    await (ended ?? new Promise((resolve) => setTimeout(resolve, 50)));
    if (store?.get('runs', runId)) {
      putTrajectory(store, runId, rolloutId, [...events, { type: 'finished', reason: 'no-bug', steps: 1, costUsd: 0, durationMs: 50 }]);
      store.transact((tx) => {
        tx.patch('rollouts', rolloutId, { status: 'no-bug', steps: 1 });
        tx.patch('runs', runId, { status: 'finished' });
      });
    }
    report({ type: 'run-finished', runId, status: 'finished' });
    return { runId, status: 'finished', bugs: [], rollouts: [], yield: { rollouts: 2, submitted: 0, featuresThatBroke: null, valid: 0 } };
  };
}

describe('runs the workbench starts through the core entry', () => {
  it('marks an interrupted run resumable on Rollouts, and R resumes it live; a finished run takes no R', async () => {
    const store = workspace();
    putRun(store, { id: 'run-done', kind: 'inject', n: 1 }, 1);
    putRun(store, { id: 'run-cut', kind: 'inject', n: 2, status: 'interrupted' }, 2, (i) => (i === 1 ? { status: 'interrupted' } : { status: 'no-bug' }));
    const seen: InjectionStart[] = [];
    let end: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => (end = resolve));
    term = renderIn(<App core={coreOf(store, { startInjection: scriptedStart({ id: 'run-cut', tag: 'r2' }, seen, store, ended) })} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    term.stdin.write('3');
    await until(() => expect(frame()).toContain('resumable (R): removal on'));
    expect(frame()).toContain('(run-cut)');
    expect(frame()).toMatch(/R resume/);
    // The older, finished run is not resumable: R does nothing there.
    term.stdin.write(']');
    await until(() => expect(frame()).toContain('(run-done)'));
    expect(frame()).not.toContain('resumable');
    term.stdin.write('R');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([]);
    // Back to the interrupted run: R resumes it, and its view goes live, the finished rollout kept.
    term.stdin.write('[');
    await until(() => expect(frame()).toContain('resumable (R)'));
    term.stdin.write('R');
    await until(() => expect(frame()).toMatch(/r2 +step 1/));
    // Focus r2 (the live view shown as the resume starts may take the first key before it settles).
    await until(() => {
      if (!/›r2/.test(frame())) term!.stdin.write(DOWN);
      expect(frame()).toContain('rollout r2 goes on');
    });
    expect(seen).toEqual([{ resume: 'run-cut' }]);
    expect(frame()).toMatch(/r1 +no bug 5/);
    expect(frame()).toMatch(/^live: /m);
    // Once it has ended, it is finished: no longer live, nor resumable.
    end();
    await until(() => expect(frame()).not.toMatch(/^live: /m));
    expect(frame()).not.toContain('resumable');
  });

  it("sends a run to Slurm from the Run form's engine row", async () => {
    const store = workspace();
    const seen: InjectionStart[] = [];
    term = renderIn(<App core={coreOf(store, { startInjection: scriptedStart({ id: 'run-slurm', tag: 'r1' }, seen) })} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    term.stdin.write('2');
    await until(() => expect(frame()).toContain('New injection run on'));
    expect(frame()).toMatch(/engine +‹ this machine ›/);
    // The engine row is the last: up from the first field reaches it.
    term.stdin.write('\u001B[A');
    await until(() => expect(frame()).toMatch(/› engine +‹ this machine ›/));
    term.stdin.write(RIGHT);
    await until(() => expect(frame()).toMatch(/› engine +‹ Slurm, 2 tasks ›/));
    expect(frame()).toContain('a job array on the Slurm cluster');
    term.stdin.write('\r');
    await until(() => expect(frame()).toContain('rollout r1 goes on'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ cluster: { tasks: 2 }, request: { image: 'bugbench/repo-ratekit:latest', strategy: 'removal', n: 3 } });
    expect(seen[0]).not.toHaveProperty('request.maxSteps');
  });
});
