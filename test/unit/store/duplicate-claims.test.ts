/**
 * One bug per fingerprint, whatever order the checks of its copies finish in:
 * every order of four copies' verdicts, recorded through the real store (two
 * processes' stores on one workspace, taking turns), leaves exactly one copy
 * holding the fingerprint and the others `duplicate` of it.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../../src/bugs/check-types.js';
import { recordVerdict } from '../../../src/pipeline/bug-checks.js';
import { recoverAbandoned } from '../../../src/store/recover.js';
import { Store } from '../../../src/store/store.js';
import { bugRecord } from '../../helpers/records.js';

const ids = ['b1', 'b2', 'b3', 'b4'];

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

const bug = (id: string, minute: number) => bugRecord(id, { status: 'checking', image: 'img:1', repo: 'r', createdAt: `2026-01-01T00:0${minute}:00.000Z`, updatedAt: `2026-01-01T00:0${minute}:00.000Z`, fingerprint: 'same', check: null });

const report = (valid: boolean): CheckReport =>
  ({
    valid,
    cancelled: false,
    checks: Array.from({ length: 9 }, (_, i) => ({ name: `c${i}`, verdict: valid || i < 8 ? 'pass' : 'fail', reason: valid ? 'ok' : 'the gold patch does not solve it', durationMs: 1, runs: [] })),
    FAIL_TO_PASS: ['t1'],
    PASS_TO_PASS: ['t2'],
  }) as unknown as CheckReport;

function workspace(): { a: Store; b: Store } {
  const root = mkdtempSync(join(tmpdir(), 'bugbench-claims-'));
  const a = Store.open({ root, durable: false });
  a.transact((tx) => ids.forEach((id, i) => tx.put('bugs', bug(id, i))));
  for (const id of ids) mkdirSync(join(root, 'bugs', id), { recursive: true });
  return { a, b: Store.open({ root, durable: false }) };
}

describe('claiming a fingerprint', () => {
  it.each(permutations(ids).map((order) => [order.join(' ')]))('leaves one holder when the checks finish in the order %s', (order) => {
    const { a, b } = workspace();
    order.split(' ').forEach((id, i) => {
      const store = i % 2 === 0 ? a : b;
      recordVerdict(store, id, report(true), join(store.root, 'bugs', id, 'checks', 'x'));
    });
    a.refresh();
    const bugs = a.all('bugs');
    const holders = bugs.filter((x) => x.status === 'valid');
    expect(holders.map((x) => x.id)).toEqual([order.split(' ')[0]]);
    for (const other of bugs.filter((x) => x.status !== 'valid')) expect(other).toMatchObject({ status: 'duplicate', duplicateOf: holders[0]!.id });
  });

  it('lets a valid copy claim when the first to finish was invalid, and keeps the holder when it is checked again', () => {
    const { a } = workspace();
    recordVerdict(a, 'b3', report(false), join(a.root, 'bugs', 'b3', 'checks', 'x'));
    recordVerdict(a, 'b4', report(true), join(a.root, 'bugs', 'b4', 'checks', 'x'));
    recordVerdict(a, 'b1', report(true), join(a.root, 'bugs', 'b1', 'checks', 'x'));
    expect(a.get('bugs', 'b3')!.status).toBe('invalid');
    expect(a.get('bugs', 'b4')!.status).toBe('valid');
    expect(a.get('bugs', 'b1')).toMatchObject({ status: 'duplicate', duplicateOf: 'b4' });
    // Checked again, the holder is not a duplicate of its own duplicate.
    recordVerdict(a, 'b4', report(true), join(a.root, 'bugs', 'b4', 'checks', 'y'));
    expect(a.get('bugs', 'b4')!.status).toBe('valid');
  });

  it('keeps the verdict a bug had when a later check session stops before a verdict, and gives it back after a crash', () => {
    const { a } = workspace();
    recordVerdict(a, 'b1', report(true), join(a.root, 'bugs', 'b1', 'checks', 'x'));
    const before = a.get('bugs', 'b1')!.check;
    // A session opened on it (status checking) and left half-stepped records a cancelled report.
    a.transact((tx) => tx.patch('bugs', 'b1', { status: 'checking' }));
    const cancelled = { ...report(false), cancelled: true, checks: report(true).checks.slice(0, 2) } as CheckReport;
    recordVerdict(a, 'b1', cancelled, join(a.root, 'bugs', 'b1', 'checks', 'y'));
    expect(a.get('bugs', 'b1')).toMatchObject({ status: 'valid', check: before });
    // A process that died mid-check leaves it checking; the next start gives the verdict back.
    a.transact((tx) => tx.patch('bugs', 'b1', { status: 'checking', checkingBy: { host: hostname(), pid: 1, start: 'not-init' } }));
    recoverAbandoned(a);
    expect(a.get('bugs', 'b1')!.status).toBe('valid');
    // A bug that never had a verdict is cancelled, as before.
    a.transact((tx) => tx.patch('bugs', 'b2', { status: 'checking', checkingBy: { host: hostname(), pid: 1, start: 'not-init' } }));
    recoverAbandoned(a);
    expect(a.get('bugs', 'b2')!.status).toBe('cancelled');
  });
});
