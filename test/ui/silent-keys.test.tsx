/**
 * Keys that did nothing and said nothing (newcomer report, item 13): enter on
 * a solver attempt in Rollouts opens the bug it solved, and on a rollout with
 * no bug says so; R while another run goes on says so; o on Checks says why
 * there is no higher-order bug to open; keys that arrive in one read on the
 * Run form (a paste, `tmux send-keys 1 Enter`) each act, in order; c and R
 * on a run that has ended say so; Images counts a review made since it was
 * last shown. A real store at 80×24.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/pipeline/events.js';
import type { InjectRequest, InjectResult } from '../../src/pipeline/inject.js';
import type { InjectionStart } from '../../src/pipeline/start-injection.js';
import { openWorkbench, until, type Workbench } from '../helpers/workbench.js';
import { at, coreOf, putBug, putRun, workspace } from '../helpers/workspace.js';

const BUG = 'ratekit-removal-5a5a5a5a';
const DOWN = '\u001B[B';

let term: Workbench | undefined;
afterEach(() => term?.unmount());

const frame = () => term!.frame();
const press = (key: string, mark: RegExp | string) => term!.press(key, mark);

describe('keys that used to do nothing (newcomer report, item 13)', () => {
  it("enter on a solver attempt opens the bug it solved; on a rollout that made none, it says so", async () => {
    const store = workspace();
    // The bug solved is not the one Review shows first.
    putBug(store, BUG, { createdAt: at(0) });
    putBug(store, 'ratekit-removal-11111111', { createdAt: at(1) });
    putRun(store, { id: 'run-old', kind: 'inject', n: 1 }, 1, () => ({ status: 'no-bug', detail: 'nothing to remove' }));
    putRun(store, { id: 'solve-new', kind: 'solve', n: 2 }, 5);
    store.transact((tx) => {
      for (let i = 0; i < 2; i++) {
        tx.put('attempts', { id: `solve-new-a${i + 1}`, bugId: BUG, runId: 'solve-new', index: i, solver: 'offline/oracle', statement: 'template', status: 'evaluated', solved: true, failing: [], reward: 1, patch: null, evalLog: null, evalRunMs: 10, detail: null, createdAt: at(5) });
      }
    });
    term = await openWorkbench(coreOf(store));
    await press('3', /\(solve-new\)/);
    term.stdin.write('\r');
    await until(() => expect(frame()).toContain('[5 Review]'));
    expect(frame()).toMatch(new RegExp(`^›${BUG} `, 'm'));
    // The older injection run's rollout made no bug: enter says so, and the next key puts the note away.
    await press('3', /\(solve-new\)/);
    await press(']', /\(run-old\)/);
    term.stdin.write('\r');
    await until(() => expect(frame()).toContain('r1 made no bug'));
    expect(frame()).toContain('[3 Rollouts]');
    term.stdin.write('j');
    await until(() => expect(frame()).not.toContain('made no bug'));
  });

  it('R on a resumable run while another run goes on says it waits for that one', async () => {
    const store = workspace();
    putRun(store, { id: 'run-cut', kind: 'inject', n: 1, status: 'interrupted' }, 1, () => ({ status: 'interrupted' }));
    const seen: InjectionStart[] = [];
    const startInjection = async (start: InjectionStart, deps: { signal?: AbortSignal }, report: Report): Promise<InjectResult> => {
      seen.push(start);
      putRun(store, { id: 'run-live', kind: 'inject', n: 3, status: 'running', finishedAt: null }, 5, () => ({ status: 'running' }));
      report({ type: 'run-started', runId: 'run-live', kind: 'inject' });
      await new Promise<void>((resolve) => deps.signal?.addEventListener('abort', () => resolve(), { once: true }));
      return { runId: 'run-live', status: 'cancelled', bugs: [], rollouts: [], yield: { rollouts: 3, submitted: 0, featuresThatBroke: null, valid: 0 } };
    };
    term = await openWorkbench(coreOf(store, { startInjection }));
    await press('2', /New injection run on/);
    term.stdin.write('\r');
    await until(() => expect(frame()).toMatch(/^live: .*\(run-live\)/m));
    await press(']', /^resumable \(R\): .*\(run-cut\)/m);
    term.stdin.write('R');
    await until(() => expect(frame()).toContain('another run is going: R resumes this one once it has ended'));
    expect(seen).toHaveLength(1);
  });

  it('c and R on a run that has ended say there is nothing to cancel or resume', async () => {
    const store = workspace();
    putRun(store, { id: 'run-done', kind: 'inject', n: 1 }, 1);
    term = await openWorkbench(coreOf(store));
    await press('3', /run-done/);
    term.stdin.write('c');
    await until(() => expect(frame()).toContain('run run-done has ended (finished): there is nothing to cancel'));
    term.stdin.write('R');
    await until(() => expect(frame()).toContain('run run-done has ended (finished): there is nothing to resume'));
  });

  it('o on Checks says why there is no higher-order bug to open', async () => {
    const store = workspace();
    putBug(store, BUG);
    term = await openWorkbench(coreOf(store));
    await press('5', /1 bug\(s\)/);
    await press('4', `${BUG} VALID`);
    term.stdin.write('o');
    await until(() => expect(frame()).toContain('no higher-order bug to open: h makes them'));
  });

  it('takes each key of one read in order on the Run form: "1" and enter, then backspace, "2" and enter', async () => {
    const started: InjectRequest[] = [];
    const startInjection = async (start: InjectionStart, _deps: unknown, report: Report): Promise<InjectResult> => {
      if ('request' in start) started.push(start.request);
      const runId = `run-${started.length}`;
      report({ type: 'run-started', runId, kind: 'inject' });
      return { runId, status: 'finished', bugs: [], rollouts: [], yield: { rollouts: 0, submitted: 0, featuresThatBroke: null, valid: 0 } };
    };
    term = await openWorkbench(coreOf(workspace(), { startInjection }));
    await press('2', /New injection run on/);
    await press(DOWN, /› bugs +3/);
    term.stdin.write('1\r');
    await until(() => expect(started).toHaveLength(1));
    expect(started[0]).toMatchObject({ n: 1 });
    await until(() => expect(frame()).toContain('(run-1)'));
    await press('2', /New injection run on/);
    await press(DOWN, /› bugs +1\b/);
    term.stdin.write('\u007F2\r');
    await until(() => expect(started).toHaveLength(2));
    expect(started[1]).toMatchObject({ n: 2 });
  });
});

describe('the Images screen after a review', () => {
  it('counts a bug accepted elsewhere once Images is shown again', async () => {
    const store = workspace();
    putBug(store, BUG, { status: 'valid' });
    const counts = () => {
      const bugCounts: Record<string, number> = {};
      for (const bug of store.all('bugs')) bugCounts[bug.status] = (bugCounts[bug.status] ?? 0) + 1;
      return bugCounts;
    };
    const listImages = async () => [{ id: 'sha256:1', tag: 'bugbench/repo-ratekit:latest', repo: 'ratekit', commit: 'c0', created: at(0), sizeBytes: 0, bugs: store.all('bugs').length, bugCounts: counts(), testCommand: 'go test ./...' }];
    term = await openWorkbench(coreOf(store, { listImages }));
    await until(() => expect(frame()).toMatch(/1 valid(?! \()/));
    // Accepted as Review's `a` does it; Images, shown again, reads the counts again.
    store.transact((tx) => tx.patch('bugs', BUG, { status: 'accepted' }));
    await press('3', /\[3 Rollouts\]/);
    await press('1', /1 valid \(1 accepted\)/);
  });
});
