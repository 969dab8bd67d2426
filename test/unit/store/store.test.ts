import { appendFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../src/store/store.js';
import type { RunRecord } from '../../../src/store/records.js';

const root = () => mkdtempSync(join(tmpdir(), 'bugbench-store-'));
const run = (id: string, extra: Partial<RunRecord> = {}): RunRecord => ({
  id,
  kind: 'inject',
  status: 'running',
  image: 'img:1',
  strategy: 'removal',
  policy: 'offline',
  model: 'offline/removal',
  n: 1,
  options: {},
  owner: { host: 'h', pid: 1, start: '1' },
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  error: null,
  ...extra,
});

describe('the workspace store', () => {
  it('starts empty, keeps what a transaction writes, and reads it back from the files', () => {
    const dir = root();
    const store = Store.open({ root: dir, durable: false });
    expect(store.all('runs')).toEqual([]);
    store.transact((tx) => tx.put('runs', run('a')));
    store.transact((tx) => tx.patch('runs', 'a', { status: 'finished' }));
    expect(store.get('runs', 'a')?.status).toBe('finished');
    const again = Store.open({ root: dir });
    expect(again.get('runs', 'a')).toEqual(run('a', { status: 'finished' }));
  });

  it('writes nothing when the transaction throws', () => {
    const dir = root();
    const store = Store.open({ root: dir, durable: false });
    expect(() =>
      store.transact((tx) => {
        tx.put('runs', run('a'));
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    expect(store.get('runs', 'a')).toBeUndefined();
    expect(Store.open({ root: dir }).get('runs', 'a')).toBeUndefined();
  });

  it('sees what another store on the same workspace wrote, and builds on it rather than overwriting it', () => {
    const dir = root();
    const one = Store.open({ root: dir, durable: false });
    const two = Store.open({ root: dir, durable: false });
    one.transact((tx) => tx.put('runs', run('a', { n: 1 })));
    // `two` has not refreshed, but a transaction catches up before it reads.
    two.transact((tx) => tx.patch('runs', 'a', { n: tx.get('runs', 'a')!.n + 1 }));
    one.transact((tx) => tx.patch('runs', 'a', { n: tx.get('runs', 'a')!.n + 1 }));
    expect(two.refresh()).toBe(true);
    expect(two.get('runs', 'a')?.n).toBe(3);
  });

  it('compacts into a new generation and keeps every record', () => {
    const dir = root();
    const store = Store.open({ root: dir, durable: false, compactAtBytes: 2000 });
    for (let i = 0; i < 60; i++) store.transact((tx) => tx.put('runs', run(`r${i}`)));
    const files = readdirSync(join(dir, 'store'));
    expect(files.some((f) => /^checkpoint-[2-9]\d*\.json$/.test(f))).toBe(true);
    expect(files.filter((f) => f.startsWith('checkpoint-')).length).toBeLessThanOrEqual(2);
    const fresh = Store.open({ root: dir });
    expect(fresh.count('runs')).toBe(60);
    // A store opened before the compactions follows the switch.
    const early = Store.open({ root: dir, durable: false, compactAtBytes: 2000 });
    store.transact((tx) => tx.delete('runs', 'r0'));
    early.refresh();
    expect(early.get('runs', 'r0')).toBeUndefined();
    expect(early.count('runs')).toBe(59);
  });

  it('ignores a line cut off by a crash, and the next writer replaces it', () => {
    const dir = root();
    const store = Store.open({ root: dir, durable: false });
    store.transact((tx) => tx.put('runs', run('a')));
    const journal = join(dir, 'store', 'journal-1.jsonl');
    appendFileSync(journal, '{"t":[{"c":"runs","op":"put","id":"half","v":{"id":"ha');
    const reader = Store.open({ root: dir });
    expect(reader.get('runs', 'half')).toBeUndefined();
    expect(reader.get('runs', 'a')).toBeDefined();
    reader.transact((tx) => tx.put('runs', run('b')));
    const lines = readFileSync(journal, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.map((l) => JSON.parse(l).t[0].id)).toEqual(['a', 'b']);
  });

  it('refuses a workspace written by a newer schema, saying to upgrade', () => {
    const dir = root();
    Store.open({ root: dir });
    writeFileSync(join(dir, 'store', 'CURRENT'), JSON.stringify({ generation: 1, schemaVersion: 99 }));
    expect(() => Store.open({ root: dir })).toThrow(/newer bugbench.*upgrade/);
  });

  it('keeps paths relative to the workspace', () => {
    const dir = root();
    const store = Store.open({ root: dir });
    expect(store.rel(join(dir, 'bugs', 'x', 'meta.json'))).toBe('bugs/x/meta.json');
    expect(store.abs('bugs/x')).toBe(join(dir, 'bugs', 'x'));
  });
});
