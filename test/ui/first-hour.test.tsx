/**
 * What a researcher ran into in the workbench's first hour (issue 18, items
 * 5–12), each at 80×24 through the real workbench over a workspace of its
 * own. Runs, bugs and attempts are records in a real store (with trajectory
 * files); the core's long work (an injection, solving) is a scripted stand-in
 * that reports events as the real one does, so the screens are what is tested.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RolloutEvent, RolloutEventBody } from '../../src/agent/events.js';
import type { AttemptSummary, CoreEvent, Report } from '../../src/pipeline/events.js';
import type { InjectRequest, InjectResult } from '../../src/pipeline/inject.js';
import type { InjectionStart } from '../../src/pipeline/start-injection.js';
import type { SolveResult } from '../../src/pipeline/solve.js';
import type { WorkbenchCore } from '../../src/pipeline/workbench-core.js';
import type { BugRecord } from '../../src/store/records.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { VALID_CHECK } from '../helpers/records.js';
import { renderIn } from '../helpers/terminal.js';
import { at, coreOf, IMAGE, putBug as putBugRecord, putRun, workspace } from '../helpers/workspace.js';

const SIZE = { columns: 80, rows: 24 };

let term: ReturnType<typeof renderIn> | undefined;
afterEach(() => term?.unmount());

function frame(): string {
  // eslint-disable-next-line no-control-regex
  return term!.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
}

async function until(check: () => void, timeout = 10_000): Promise<void> {
  await vi.waitFor(check, { timeout, interval: 50 });
}

/** Presses `key` until the frame shows `mark` (Ink may still be wiring up input). */
async function press(key: string, mark: RegExp | string): Promise<void> {
  await until(() => {
    const shown = typeof mark === 'string' ? frame().includes(mark) : mark.test(frame());
    if (!shown) term!.stdin.write(key);
    expect(frame()).toMatch(mark);
  });
}

/** A valid bug with two failing and ten passing tests, as the first hour's screens show it. */
function putBug(store: Store, id: string, fields: Partial<BugRecord>): void {
  putBugRecord(store, id, { fingerprint: 'f', check: { ...VALID_CHECK, at: at(0), failToPass: 2, passToPass: 10 }, ...fields });
}

/** A trajectory file of a few events, the text of which says which run it belongs to. */
function putTrajectory(store: Store, runId: string, rolloutId: string, text: string): void {
  const events: RolloutEventBody[] = [
    { type: 'rollout-started', rolloutId, runId, role: 'injector', strategy: 'removal', policy: 'offline', model: 'offline/removal', image: IMAGE },
    { type: 'step-started', step: 1 },
    { type: 'text-delta', step: 1, text },
    { type: 'finished', reason: 'submitted', steps: 1, costUsd: 0, durationMs: 10 },
  ];
  mkdirSync(store.abs(join('runs', runId)), { recursive: true });
  writeFileSync(store.abs(join('runs', runId, `${rolloutId}.jsonl`)), events.map((e, i) => JSON.stringify({ ...e, seq: i + 1, t: i })).join('\n') + '\n');
}

/** An injection that reports its run and one line of text from r1, then finishes. */
function scriptedInject(runId: string, text: string, seen: InjectRequest[]) {
  return async (settings: InjectRequest, _deps: unknown, report: Report): Promise<InjectResult> => {
    seen.push(settings);
    report({ type: 'run-started', runId, kind: 'inject' });
    const send = (body: RolloutEventBody, seq: number) => report({ type: 'rollout', rolloutId: `${runId}-r1`, event: { ...body, seq, t: seq } as RolloutEvent });
    send({ type: 'rollout-started', rolloutId: `${runId}-r1`, runId, role: 'injector', strategy: 'removal', policy: 'offline', model: 'offline/removal', image: IMAGE }, 1);
    send({ type: 'step-started', step: 1 }, 2);
    send({ type: 'text-delta', step: 1, text }, 3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    report({ type: 'run-finished', runId, status: 'finished' });
    return { runId, status: 'finished', bugs: [], rollouts: [], yield: { rollouts: 1, submitted: 0, featuresThatBroke: null, valid: 0 } };
  };
}

/** The new run a start asks for (these tests start no resume). */
function requestOf(start: InjectionStart): InjectRequest {
  if (!('request' in start)) throw new Error(`expected a new run, got a resume of ${start.resume}`);
  return start.request;
}

describe('the workbench after a first hour of use (80×24)', () => {
  it('counts duplicates apart from valid bugs, and a finished solve run as done (items 5, 6)', async () => {
    const store = workspace();
    putRun(store, { id: 'run-dups', kind: 'inject', n: 3 }, 1, (i) => ({ bugId: `dup-${i}` }));
    for (let i = 0; i < 3; i++) putBug(store, `dup-${i}`, { status: 'duplicate', duplicateOf: 'first', rollout: `run-dups-r${i + 1}` });
    putRun(store, { id: 'solve-run', kind: 'solve', n: 8, strategy: 'mix', options: { bugId: 'dup-0' } }, 5, () => ({}));
    store.transact((tx) => {
      for (let i = 0; i < 8; i++) {
        const id = `solve-run-a${i + 1}`;
        tx.put('attempts', { id, bugId: 'dup-0', runId: 'solve-run', index: i, solver: 'offline/mix', statement: 'template', status: 'evaluated', solved: i % 2 === 0, failing: [], reward: i % 2 === 0 ? 1 : -1, patch: null, evalLog: null, evalRunMs: 10, detail: null, createdAt: at(5) });
      }
    });
    term = renderIn(<App core={coreOf(store)} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    // The newest run first: the solve run, done, with its attempts counted as solved — not "checking" for good.
    await press('3', /8\/8 done, 4 solved/);
    expect(frame()).not.toMatch(/checking/);
    // It says which bug it solved, not a strategy named "mix".
    expect(frame()).toMatch(/solving dup-0 \(offline solver mix\)/);
    await press(']', /3\/3 done, 0 valid, 3 duplicate/);
  });

  it('shows a new run when it starts, after browsing old runs and replaying one, and gives each run its own seed (items 7, 8, 9)', async () => {
    const store = workspace();
    putRun(store, { id: 'run-old', kind: 'inject', n: 1 }, 1, () => ({}));
    putTrajectory(store, 'run-old', 'run-old-r1', 'words of the oldest run');
    putRun(store, { id: 'run-mid', kind: 'inject', n: 1 }, 3, () => ({}));
    putTrajectory(store, 'run-mid', 'run-mid-r1', 'words of the middle run');
    const seeds: InjectRequest[] = [];
    let runs = 0;
    const core = coreOf(store, {
      startInjection: (start, deps, report) => scriptedInject(`run-new${++runs}`, `words of new run ${runs}`, seeds)(requestOf(start), deps, report),
    });
    term = renderIn(<App core={core} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    await press('3', 'words of the middle run');
    // Back to the oldest run, and replay its rollout.
    await press(']', 'words of the oldest run');
    await press('p', /replaying at 10×/);
    // Start a run from the Run form.
    await press('2', /New injection run on/);
    term.stdin.write('\r');
    await until(() => expect(frame()).toContain('words of new run 1'));
    expect(frame()).not.toContain('words of the oldest run');
    expect(frame()).not.toMatch(/replaying/);
    // A second run from the same form gets another seed.
    await press('2', /New injection run on/);
    await until(() => {
      term!.stdin.write('\r');
      expect(frame()).toContain('words of new run 2');
    });
    expect(seeds).toHaveLength(2);
    expect(seeds[1]!.seed).not.toBe(seeds[0]!.seed);
  });

  it('shows every solver attempt with its solver, result and reward, and the solve rate in Review (item 10)', async () => {
    const store = workspace();
    putBug(store, 'knotcfg-removal-3a9f61c2', { solve: { runId: 'solve-x', attempts: 4, solved: 2, solveRate: 0.5, injectReward: 0.1, alpha: 0.8, at: at(2) } });
    const solve = async (settings: { bugId: string; k: number }, _deps: unknown, report: (e: CoreEvent) => void): Promise<SolveResult> => {
      const solvers = ['oracle', 'noop', 'partial', 'oracle'];
      const attempts: AttemptSummary[] = solvers.map((s, i) => ({ id: `solve-ui-a${i + 1}`, solver: `offline/${s}`, status: 'evaluated', solved: s === 'oracle', failing: s === 'oracle' ? [] : ['t1', 't2', 't3'], patchPath: null, trajectory: '', reward: s === 'oracle' ? 1 : -1, evalRunMs: 1 }));
      report({ type: 'run-started', runId: 'solve-ui', kind: 'solve' });
      for (const attempt of attempts) report({ type: 'attempt', attempt });
      return { bugId: settings.bugId, runId: 'solve-ui', attempts, solveRate: 0.5, injectReward: 0.1, alpha: 0.8 };
    };
    term = renderIn(<App core={coreOf(store, { solve: solve as WorkbenchCore['solve'] })} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    await press('5', /solve rate 0\.500 · injection reward 0\.100/);
    await press('4', 'knotcfg-removal-3a9f61c2 VALID');
    term.stdin.write('s');
    await until(() => expect(frame()).toMatch(/solving 4\/8 · solve rate 0\.500 · injection reward 0\.100 · 2 solved/));
    expect(frame()).toMatch(/a1 oracle ✓ \+1/);
    expect(frame()).toMatch(/a2 noop ✗ −1 \(3 fail\)/);
    expect(frame()).toMatch(/a3 partial ✗ −1 \(3 fail\)/);
  });

  it('keeps bug ids, footer keys and help whole at 80 columns (item 11)', async () => {
    const store = workspace();
    const long = 'a-repository-with-a-long-name-removal-history-7c1e5b0d';
    putBug(store, long, {});
    term = renderIn(<App core={coreOf(store)} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    await press('5', /1 bug\(s\)/);
    // The unique end of the id stays in the list.
    expect(frame()).toMatch(/a-repository-with-[a-z-]*…-7c1e5b0d /);
    const footer = () => frame().trimEnd().split('\n').at(-1)!;
    for (const key of ['a ', 'r ', 'enter', 'f/i/t/o', '? help', 'q quit']) expect(footer()).toContain(key);
    await press('4', /\[4 Checks\]/);
    for (const key of ['enter', 'a ', 's ', 'h ', 'c ', 'o ', '? help']) expect(footer()).toContain(key);
    // Help wraps a long description instead of cutting it.
    await press('?', /Keys of Checks/);
    expect(frame().replace(/[│ \n]+/g, ' ')).toContain('make the higher-order bugs of the failed attempts and check them');
  });

  it('shows the report of a bug whose checks finished after it was opened, and stepping halfway keeps its verdict (item 12)', async () => {
    const store = workspace();
    putBug(store, 'knotcfg-removal-0badc0de', { status: 'checking', check: null });
    term = renderIn(<App core={coreOf(store)} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    await press('5', /1 bug\(s\)/);
    await press('4', /not checked yet/);
    // The checks end in another process: a report lands and the record gets its verdict.
    const dir = join('bugs', 'knotcfg-removal-0badc0de', 'checks', 'later');
    mkdirSync(store.abs(dir), { recursive: true });
    writeFileSync(store.abs(join(dir, 'report.json')), JSON.stringify({ valid: true, checks: [{ name: 'test-files', verdict: 'pass', reason: 'the test files are in order', durationMs: 5, runs: [] }], FAIL_TO_PASS: [], PASS_TO_PASS: [] }));
    const other = Store.open({ root: store.root });
    other.transact((tx) => tx.patch('bugs', 'knotcfg-removal-0badc0de', { status: 'valid', check: { valid: true, cancelled: false, failedCheck: null, reason: 'all 9 checks pass', verdicts: 'ppppppppp', at: at(9), dir: 'checks/later', failToPass: 1, passToPass: 9 } }));
    await until(() => expect(frame()).toMatch(/last report/), 15_000);
    expect(frame()).toContain('the test files are in order');
  });
});
