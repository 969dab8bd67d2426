/**
 * The Checks screen at 80×24 with a solve and `h` (newcomer report, item 5):
 * the frame keeps its title row, the reasons that do not fit are counted
 * rather than dropped, and attempts of two solve runs are told apart. A real
 * store; the core's higher-order work is a scripted stand-in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_NAMES } from '../../src/bugs/check-types.js';
import type { HigherOrderResult } from '../../src/pipeline/higher-order.js';
import type { WorkbenchCore } from '../../src/pipeline/workbench-core.js';
import type { AttemptRecord } from '../../src/store/records.js';
import { openWorkbench, until, type Workbench } from '../helpers/workbench.js';
import { at, coreOf, putBug, workspace } from '../helpers/workspace.js';

const SIZE = { columns: 80, rows: 24 };
const PARENT = 'ratekit-removal-b19e315a';
const OLDER = 'solve-20260101-000200-a0a0';
const LATEST = 'solve-20260101-000300-b1b1';

let term: Workbench | undefined;
afterEach(() => term?.unmount());

const frame = () => term!.frame();
const press = (key: string, mark: RegExp | string) => term!.press(key, mark);

function attempt(runId: string, i: number, solved: boolean): AttemptRecord {
  return { id: `${runId}-a${i}`, bugId: PARENT, runId, index: i - 1, solver: 'offline/mix', statement: 'template', status: 'evaluated', solved, failing: solved ? [] : ['t1'], reward: solved ? 1 : -1, patch: null, evalLog: null, evalRunMs: 10, detail: null, createdAt: at(3) };
}

const SOLVED = new Set([`${OLDER}-a1`, `${OLDER}-a3`, `${LATEST}-a2`, `${LATEST}-a3`, `${LATEST}-a5`]);
/** Why each of the 12 attempts of both solve runs made no higher-order bug: six reasons, and the offline solver's note. */
const REASONS: Record<string, string> = {
  [`${OLDER}-a2`]: 'no oracle test failed after it',
  [`${OLDER}-a4`]: "its patch only repaired whole files of the bug (query.py, serializer.py) and changed nothing else: what is left is the parent's own bug, not a new state",
  [`${LATEST}-a1`]: 'it changed no code: its state is the parent bug itself',
  [`${LATEST}-a4`]: 'it changed no code: its state is the parent bug itself',
  [`${LATEST}-a6`]: 'with its patch the code is the original again',
  [`${LATEST}-a7`]: 'it has no evaluated patch (error)',
  [`${LATEST}-a8`]: 'no oracle test failed after it',
};

describe('the Checks screen with solve results and h at 80×24 (newcomer report, item 5)', () => {
  it('keeps the title, counts the reasons it cannot show, and tells the solve runs apart', async () => {
    const store = workspace();
    putBug(store, PARENT, { solve: { runId: LATEST, attempts: 8, solved: 3, solveRate: 0.375, injectReward: 0.1, alpha: 0.8, at: at(3) } });
    const attempts = [...[1, 2, 3, 4].map((i) => attempt(OLDER, i, SOLVED.has(`${OLDER}-a${i}`))), ...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => attempt(LATEST, i, SOLVED.has(`${LATEST}-a${i}`)))];
    store.transact((tx) => attempts.forEach((a) => tx.put('attempts', a)));
    const higherOrder = async (): Promise<HigherOrderResult> => ({
      parent: PARENT,
      bugs: [],
      skipped: attempts.map((a) => ({ attempt: a.id, reason: SOLVED.has(a.id) ? 'it solved the bug' : REASONS[a.id]! })),
    });
    // Its last report: the first check's detail (two runs, many tests changed) is longer than the screen has room for.
    const results = (status: string) => Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`test_${i}`, i < 8 ? status : 'passed']));
    const run = (label: string, status: string) => ({ label, command: 'go test ./...', exitCode: 1, durationMs: 900, timedOut: false, logPath: '/dev/null', results: results(status) });
    const checks = CHECK_NAMES.map((name, i) => ({ name, verdict: 'pass', reason: `${name} holds`, durationMs: 1000, runs: i === 0 ? [run('original', 'passed'), run('buggy', 'failed'), run('weakened', 'failed')] : [] }));
    const base = coreOf(store);
    const bugDetails = (id: string) => {
      const details = base.bugDetails(id);
      return details && ({ ...details, checks } as typeof details);
    };
    term = await openWorkbench({ ...base, bugDetails, higherOrder: higherOrder as WorkbenchCore['higherOrder'] }, SIZE);
    await press('5', /1 bug\(s\)/);
    await press('4', `${PARENT} VALID`);
    await until(() => expect(frame()).toMatch(/solving 8\/8 .*· solve rate 0\.375/));
    expect(frame()).toContain('run "original": exit 1');
    term.stdin.write('h');
    await until(() => expect(frame()).toMatch(/higher-order: 0 bug\(s\), 12 attempt\(s\) of 2 solve runs make none:/));
    const lines = frame().split('\n');
    // The frame fits: the header, then the bug's title, and the footer last.
    expect(lines.length).toBeLessThanOrEqual(SIZE.rows - 1);
    expect(lines[1]).toMatch(new RegExp(`^${PARENT} VALID · order 1`));
    expect(lines.at(-1)).toMatch(/q quit$/);
    // The grid names its run; the reasons name each attempt with its run.
    expect(frame()).toMatch(/solving 8\/8 · .* · run b1b1$/m);
    expect(frame()).not.toMatch(/\ba1 a1\b/);
    // What does not fit is counted: the lines shown and the "more" line account for all 12 attempts.
    const shown = lines.filter((l) => /^ {2}((a0a0|b1b1):a\d ?)+:/.test(l));
    const more = /^ {2}… (\d+) more \((\d+) attempt\(s\)\)/.exec(lines.find((l) => l.includes('… ')) ?? '');
    expect(more).not.toBeNull();
    const counted = shown.reduce((n, l) => n + l.split(': ')[0]!.trim().split(' ').length, 0) + Number(more![2]);
    expect(counted).toBe(12);
  });
});
