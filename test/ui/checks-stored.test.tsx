/**
 * The Checks screen with solve and higher-order results made outside it (issue
 * 34, item 8): `bugbench solve` and `bugbench higher-order` write them in
 * another process, and the screen shows them and opens the children; `h`
 * made here says why each failed attempt made no bug. A real store at 80×24;
 * the core's higher-order work is a scripted stand-in.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HigherOrderResult } from '../../src/pipeline/higher-order.js';
import { workbenchCore, type WorkbenchCore } from '../../src/pipeline/workbench-core.js';
import type { AttemptRecord } from '../../src/store/records.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { bugRecord, VALID_CHECK } from '../helpers/records.js';
import { renderIn } from '../helpers/terminal.js';
import { HEALTHY } from '../helpers/workspace.js';

const SIZE = { columns: 80, rows: 24 };
const IMAGE = 'bugbench/repo-ratekit:latest';
const PARENT = 'ratekit-removal-1d5c1fcc';
const CHILD = 'ratekit-removal-7e2a90b4';

let term: ReturnType<typeof renderIn> | undefined;
afterEach(() => term?.unmount());

// eslint-disable-next-line no-control-regex
const frame = () => term!.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 50 });
async function press(key: string, mark: RegExp | string): Promise<void> {
  await until(() => {
    if (!(typeof mark === 'string' ? frame().includes(mark) : mark.test(frame()))) term!.stdin.write(key);
    expect(frame()).toMatch(mark);
  });
}

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

function attempt(i: number, solver: string, solved: boolean): AttemptRecord {
  const id = `solve-cli-a${i}`;
  return { id, bugId: PARENT, runId: 'solve-cli', index: i - 1, solver, statement: 'template', status: 'evaluated', solved, failing: solved ? [] : ['t1', 't2'], reward: solved ? 1 : -1, patch: null, evalLog: null, evalRunMs: 10, detail: null, createdAt: at(2) };
}

function setUp(more: Partial<WorkbenchCore> = {}) {
  const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-checks-stored-')) });
  store.transact((tx) => tx.put('bugs', bugRecord(PARENT, { image: IMAGE, repo: 'ratekit', check: { ...VALID_CHECK, at: at(0) } })));
  const core: WorkbenchCore = {
    ...workbenchCore(store),
    diagnose: async () => HEALTHY,
    engines: async () => [],
    listImages: async () => [{ id: 'sha256:1', tag: IMAGE, repo: 'ratekit', commit: 'c0', created: at(0), sizeBytes: 0, bugs: 1, bugCounts: {}, testCommand: 'go test' }],
    ...more,
  };
  term = renderIn(<App core={core} />, SIZE);
  return store;
}

describe('the Checks screen and results made from the CLI (issue 34, item 8)', () => {
  it('shows a solve run and the higher-order bugs recorded by another process, and o opens the child', async () => {
    const store = setUp();
    await until(() => expect(frame()).toContain('Repo images'));
    await press('5', /1 bug\(s\)/);
    await press('4', `${PARENT} VALID`);
    expect(frame()).not.toMatch(/solving|higher-order/);
    // `bugbench solve` and `bugbench higher-order`, in another process.
    const cli = Store.open({ root: store.root });
    cli.transact((tx) => {
      [attempt(1, 'offline/oracle', true), attempt(2, 'offline/noop', false), attempt(3, 'offline/partial', false), attempt(4, 'offline/oracle', true)].forEach((a) => tx.put('attempts', a));
      tx.patch('bugs', PARENT, { solve: { runId: 'solve-cli', attempts: 4, solved: 2, solveRate: 0.5, injectReward: 0.1, alpha: 0.8, at: at(3) } });
      tx.put('bugs', bugRecord(CHILD, { image: IMAGE, repo: 'ratekit', order: 2, parentId: PARENT, attemptId: 'solve-cli-a3', fingerprint: 'g', createdAt: at(4), check: { ...VALID_CHECK, at: at(4) } }));
    });
    await until(() => expect(frame()).toMatch(/solving 4\/4 · solve rate 0\.500 · injection reward 0\.100 · 2 solved/), 15_000);
    expect(frame()).toMatch(/a3 partial ✗ −1 \(2 fail\)/);
    expect(frame()).toMatch(new RegExp(`higher-order: 1 bug\\(s\\)`));
    expect(frame()).toContain(`a3 (offline/partial) → ${CHILD} ✓✓✓✓✓✓✓✓✓ valid`);
    await press('o', new RegExp(`${CHILD} VALID · order 2: ${PARENT} → a3 → this`));
  });

  it('says why each failed attempt made no higher-order bug, and that the offline solvers apply whole hunks', async () => {
    const higherOrder = async (): Promise<HigherOrderResult> => ({
      parent: PARENT,
      bugs: [],
      skipped: [
        { attempt: 'solve-cli-a1', reason: 'it solved the bug' },
        { attempt: 'solve-cli-a4', reason: 'it solved the bug' },
        { attempt: 'solve-cli-a3', reason: "its patch only repaired whole files of the bug (backoff/delay.go) and changed nothing else: what is left is the parent's own bug, not a new state" },
      ],
    });
    setUp({ higherOrder: higherOrder as WorkbenchCore['higherOrder'] });
    await until(() => expect(frame()).toContain('Repo images'));
    await press('5', /1 bug\(s\)/);
    await press('4', `${PARENT} VALID`);
    term!.stdin.write('h');
    await until(() => expect(frame()).toMatch(/higher-order: 0 bug\(s\), 3 attempt\(s\) make none:/));
    expect(frame()).toContain('(the offline solvers apply whole hunks: a bug of one hunk a file gets none)');
    expect(frame()).toContain('a1 a4: it solved the bug');
    expect(frame()).toMatch(/a3: its patch only repaired whole files of the bug \(backoff\/delay\.go\)/);
  });
});
