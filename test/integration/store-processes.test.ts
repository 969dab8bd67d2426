import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { Store } from '../../src/store/store.js';
import { DIST } from '../helpers/cli.js';

/** A node process that writes to the store at `root` in a loop; `body` runs with `store` and `i`. */
function writer(root: string, count: number, body: string, options = '{}') {
  const script = `
    const { Store } = await import(${JSON.stringify(`${DIST}/store/store.js`)});
    const store = Store.open({ root: ${JSON.stringify(root)}, ...${options} });
    for (let i = 0; i < ${count}; i++) { ${body} }
    process.stdout.write('done');
  `;
  return execa('node', ['--input-type=module', '-e', script], { reject: false });
}

/** The bytes in the store's files now (its checkpoints hold every record, so this grows as the writer goes). */
function storeBytes(root: string): number {
  try {
    const dir = join(root, 'store');
    return readdirSync(dir).reduce((sum, f) => {
      try {
        return sum + statSync(join(dir, f)).size;
      } catch {
        return sum; // compacted away between the listing and the stat
      }
    }, 0);
  } catch {
    return 0;
  }
}

const record = (id: string, payload: string) =>
  `{ id: ${id}, kind: 'inject', status: 'running', image: 'i', strategy: 's', policy: 'p', model: 'm', n: 0, options: { payload: ${payload} }, owner: { host: 'h', pid: 1, start: '' }, startedAt: '', finishedAt: null, error: null }`;

describe('the store shared by processes', () => {
  it('is whole after a writer is killed with SIGKILL in the middle of its writes (and compactions)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-kill-'));
    for (let round = 0; round < 3; round++) {
      // Big records and a small compaction threshold: the kill lands in an append or a compaction.
      const child = writer(root, 100_000, `store.transact((tx) => tx.put('runs', ${record("`w${" + round + "}-${i}`", "'x'.repeat(20000 + i)")}));`, '{ compactAtBytes: 200000 }');
      // Killed once the store has grown by an amount that differs each round, so the kill lands at different points of the appends and compactions.
      const grown = storeBytes(root) + 150_000 + round * 130_000;
      await vi.waitFor(() => expect(storeBytes(root)).toBeGreaterThan(grown), { timeout: 30_000, interval: 5 });
      child.kill('SIGKILL');
      const result = await child;
      expect(result.signal).toBe('SIGKILL');
      const store = Store.open({ root });
      const mine = store.all('runs').filter((r) => r.id.startsWith(`w${round}-`));
      expect(mine.length).toBeGreaterThan(0);
      // Every record that is there is whole: its payload has exactly the length it was written with.
      for (const run of mine) expect((run.options.payload as string).length).toBe(20000 + Number(run.id.split('-')[1]));
      // And the store takes new writes after the cut-off line.
      store.transact((tx) => tx.put('runs', { ...mine[0]!, id: `after-${round}` }));
      expect(Store.open({ root }).get('runs', `after-${round}`)).toBeDefined();
    }
    const journals = readdirSync(join(root, 'store')).filter((f) => f.startsWith('journal-'));
    for (const journal of journals) {
      const text = readFileSync(join(root, 'store', journal), 'utf8');
      for (const line of text.split('\n').filter((l) => l !== '')) expect(() => JSON.parse(line)).not.toThrow();
    }
  }, 60_000);

  it('loses no update when two processes write at once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-two-'));
    const seed = Store.open({ root });
    seed.transact((tx) => tx.put('runs', JSON.parse(JSON.stringify({ id: 'shared', kind: 'inject', status: 'running', image: '', strategy: '', policy: '', model: '', n: 0, options: {}, owner: { host: '', pid: 0, start: '' }, startedAt: '', finishedAt: null, error: null }))));
    const body = (name: string) =>
      `store.transact((tx) => { tx.put('runs', ${record(`'${name}-' + i`, "''")}); tx.patch('runs', 'shared', { n: tx.get('runs', 'shared').n + 1 }); });`;
    const [a, b] = await Promise.all([writer(root, 300, body('a')), writer(root, 300, body('b'))]);
    expect(a.stdout, a.stderr).toBe('done');
    expect(b.stdout, b.stderr).toBe('done');
    const store = Store.open({ root });
    expect(store.get('runs', 'shared')?.n).toBe(600);
    expect(store.all('runs').filter((r) => /^[ab]-\d+$/.test(r.id))).toHaveLength(600);
  }, 60_000);
});
