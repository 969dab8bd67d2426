/**
 * A run cancelled with `c c` can be resumed in the same session, and its
 * resume shows the new checks only (newcomer report, items 2 and 3). A real
 * store at 80×24; the core's start is a stand-in that writes the records a
 * run writes (running, then cancelled) and plays its events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RolloutEvent, RolloutEventBody } from '../../src/agent/events.js';
import { CHECK_NAMES, type Verdict } from '../../src/bugs/check-types.js';
import type { Report } from '../../src/pipeline/events.js';
import type { InjectResult } from '../../src/pipeline/inject.js';
import type { InjectionStart } from '../../src/pipeline/start-injection.js';
import type { WorkDeps } from '../../src/pipeline/workbench-core.js';
import type { Store } from '../../src/store/store.js';
import { openWorkbench, until, type Workbench } from '../helpers/workbench.js';
import { at, coreOf, IMAGE, putBug, putRun, workspace } from '../helpers/workspace.js';

const RUN = 'run-20260101-000100-c4c4';
const BUG = 'ratekit-removal-0c0c0c0c';

let term: Workbench | undefined;
afterEach(() => term?.unmount());

const frame = () => term!.frame();
const press = (key: string, mark: RegExp | string) => term!.press(key, mark);

const aborted = (signal: AbortSignal | undefined) => new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));

/** What a run of three rollouts reports and records: r1 made BUG and its checks run, r2 is still going, r3 waits. */
function player(report: Report) {
  let seq = 0;
  const rollout = (tag: string, body: RolloutEventBody) => report({ type: 'rollout', rolloutId: `${RUN}-${tag}`, event: { ...body, seq: ++seq, t: seq } as RolloutEvent });
  const check = (i: number, verdict: Verdict) =>
    report({ type: 'check', subject: `${RUN}-r1`, event: { type: 'check-finished', result: { name: CHECK_NAMES[i]!, verdict, reason: verdict, runs: [], durationMs: 10 } } });
  const bug = (status: 'valid' | 'cancelled') =>
    report({ type: 'bug', bug: { id: BUG, rollout: `${RUN}-r1`, valid: status === 'valid', status, failedCheck: null, artifactDir: '', trajectory: '' } });
  const started = (tag: string) => rollout(tag, { type: 'rollout-started', rolloutId: `${RUN}-${tag}`, runId: RUN, role: 'injector', strategy: 'removal', policy: 'offline', model: 'offline/removal', image: IMAGE });
  return { rollout, check, bug, started };
}

function cancelledRecords(store: Store): void {
  store.transact((tx) => {
    tx.patch('runs', RUN, { status: 'cancelled', finishedAt: at(2) });
    for (const tag of ['r2', 'r3']) tx.patch('rollouts', `${RUN}-${tag}`, { status: 'cancelled' });
    tx.patch('bugs', BUG, { status: 'cancelled', check: { valid: false, cancelled: true, failedCheck: null, reason: 'cancelled', verdicts: 'pppcccccc', at: at(2), dir: null, failToPass: 0, passToPass: 0 } });
  });
}

describe('a run cancelled in the workbench (newcomer report, items 2 and 3)', () => {
  it('becomes resumable at once; R resumes it, and a bug checked again shows only the new nine checks', async () => {
    const store = workspace();
    const seen: InjectionStart[] = [];
    let release: () => void = () => undefined;
    const startInjection = async (start: InjectionStart, deps: WorkDeps, report: Report): Promise<InjectResult> => {
      seen.push(start);
      const play = player(report);
      if ('request' in start) {
        putRun(store, { id: RUN, kind: 'inject', n: 3, status: 'running', finishedAt: null }, 1, (i) => (i === 0 ? { bugId: BUG } : { status: i === 1 ? 'running' : 'pending' }));
        putBug(store, BUG, { runId: RUN, rollout: `${RUN}-r1`, status: 'checking', check: null });
        report({ type: 'run-started', runId: RUN, kind: 'inject' });
        play.started('r1');
        play.rollout('r1', { type: 'finished', reason: 'submitted', steps: 13, costUsd: 0, durationMs: 7000 });
        for (let i = 0; i < 3; i++) play.check(i, 'pass');
        play.started('r2');
        play.rollout('r2', { type: 'text-delta', step: 1, text: 'r2 looks around' });
        await aborted(deps.signal);
        for (let i = 3; i < 9; i++) play.check(i, 'cancelled');
        play.bug('cancelled');
        play.rollout('r2', { type: 'finished', reason: 'cancelled', steps: 1, costUsd: 0, durationMs: 10 });
        cancelledRecords(store);
        return { runId: RUN, status: 'cancelled', bugs: [], rollouts: [], yield: { rollouts: 2, submitted: 1, featuresThatBroke: null, valid: 0 } };
      }
      // The resume: the bug whose checks were cut off is checked again, r2 runs again.
      report({ type: 'run-started', runId: RUN, kind: 'inject' });
      for (let i = 0; i < 9; i++) play.check(i, 'pass');
      play.bug('valid');
      play.started('r2');
      play.rollout('r2', { type: 'text-delta', step: 1, text: 'r2 goes on' });
      await Promise.race([aborted(deps.signal), new Promise<void>((resolve) => (release = resolve))]);
      store.transact((tx) => {
        tx.patch('runs', RUN, { status: 'finished', finishedAt: at(3) });
        tx.patch('bugs', BUG, { status: 'valid', check: { valid: true, cancelled: false, failedCheck: null, reason: 'all 9 checks pass', verdicts: 'ppppppppp', at: at(3), dir: null, failToPass: 1, passToPass: 9 } });
      });
      return { runId: RUN, status: 'finished', bugs: [], rollouts: [], yield: { rollouts: 2, submitted: 1, featuresThatBroke: null, valid: 1 } };
    };
    // The image list read again after a run is slow (a busy engine): R must not wait for it.
    const base = coreOf(store);
    let lists = 0;
    const listImages = async () => {
      if (++lists > 1) await new Promise((resolve) => setTimeout(resolve, 3000));
      return base.listImages();
    };
    term = await openWorkbench({ ...base, listImages, startInjection });
    await press('2', /New injection run on/);
    term.stdin.write('\r');
    await until(() => expect(frame()).toMatch(/^live: /m));
    await until(() => expect(frame()).toMatch(/r1 +checking +\d+s ✓✓✓/));

    await press('c', 'c again cancels the live run');
    term.stdin.write('c');
    // The run ended: it is no longer live, and R is offered as after a restart.
    await until(() => expect(frame()).toMatch(/^resumable \(R\): /m));
    expect(frame()).not.toMatch(/^live: /m);
    expect(frame()).toMatch(/r1 .* ✓✓✓○○○○○○ CANCELLED/);

    term.stdin.write('R');
    await until(() => expect(seen).toEqual([{ request: expect.anything() }, { resume: RUN }]), 2000);
    // The nine checks of the resume, not the cut-off ones before them.
    await until(() => expect(frame()).toMatch(/r1 .* ✓✓✓✓✓✓✓✓✓ VALID/));
    expect(frame()).not.toMatch(/[✓○]{10}/);
    expect(frame()).toMatch(/^live: /m);
    release();
    await until(() => expect(frame()).not.toMatch(/^live: /m));
    expect(frame()).not.toContain('resumable');
  });
});
