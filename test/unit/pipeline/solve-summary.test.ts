/** A solve run cut short leaves the bug's recorded solve rate as it was: a rate over the attempts it got to is not one over k. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeSolve } from '../../../src/pipeline/solve.js';
import type { AttemptRecord } from '../../../src/store/records.js';
import { Store } from '../../../src/store/store.js';
import { bugRecord } from '../../helpers/records.js';

function attempt(index: number, status: AttemptRecord['status'], solved: boolean | null): AttemptRecord {
  return { id: `a${index}`, bugId: 'bug-1', runId: 'solve-1', index, solver: 'oracle', statement: 'template', status, solved, failing: [], reward: solved === null ? null : solved ? 1 : -1, patch: null, evalLog: null, evalRunMs: null, detail: null, createdAt: '2026-01-01T00:00:00.000Z' };
}

function storeWith(statuses: [AttemptRecord['status'], boolean | null][]): Store {
  const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-solve-summary-')) });
  store.transact((tx) => {
    tx.put('runs', { id: 'solve-1', kind: 'solve', status: 'cancelled', image: 'img:1', strategy: 'solve', policy: 'offline', model: 'offline/mix', n: statuses.length, options: { bugId: 'bug-1', k: statuses.length, alpha: 0.8 }, owner: { host: 'h', pid: 1, start: '1' }, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null, error: null });
    tx.put('bugs', bugRecord('bug-1'));
    statuses.forEach(([status, solved], i) => tx.put('attempts', attempt(i, status, solved)));
  });
  return store;
}

describe('the solve summary on the bug', () => {
  it('is written when every attempt was judged', () => {
    const store = storeWith([['evaluated', true], ['evaluated', false], ['unsubmitted', false]]);
    summarizeSolve(store, 'solve-1');
    expect(store.get('bugs', 'bug-1')!.solve).toMatchObject({ runId: 'solve-1', attempts: 3, solved: 1 });
  });

  it('is left as it was when the run was cut short, though some attempts were judged', () => {
    const store = storeWith([['evaluated', true], ['evaluated', true], ['cancelled', null], ['interrupted', null]]);
    const result = summarizeSolve(store, 'solve-1');
    expect(result.attempts).toHaveLength(4);
    expect(store.get('bugs', 'bug-1')!.solve ?? null).toBeNull();
  });
});
