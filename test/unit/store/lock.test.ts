import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockTimeoutError, WorkspaceLock } from '../../../src/store/lock.js';

const lockPath = () => join(mkdtempSync(join(tmpdir(), 'bugbench-lock-')), 'lock');

describe('the workspace lock', () => {
  it('is re-entrant for its holder and gone after release', () => {
    const path = lockPath();
    const lock = new WorkspaceLock(path);
    const inner = lock.withLock(() => lock.withLock(() => 42));
    expect(inner).toBe(42);
    expect(new WorkspaceLock(path, { timeoutMs: 50 }).withLock(() => 'free')).toBe('free');
  });

  it('waits for a live holder and gives up with the holder named', () => {
    const path = lockPath();
    const holder = new WorkspaceLock(path);
    holder.acquire();
    expect(() => new WorkspaceLock(path, { timeoutMs: 100 }).acquire()).toThrow(LockTimeoutError);
    expect(() => new WorkspaceLock(path, { timeoutMs: 100 }).acquire()).toThrow(new RegExp(`process ${process.pid} on ${hostname()}`));
    holder.release();
  });

  it('breaks a lock whose holder died', () => {
    const path = lockPath();
    mkdirSync(path);
    writeFileSync(join(path, 'holder.json'), JSON.stringify({ host: hostname(), pid: 99_999_999, start: '1', token: 't', at: Date.now() }));
    expect(new WorkspaceLock(path, { timeoutMs: 200 }).withLock(() => 'mine')).toBe('mine');
  });

  it('breaks a lock held past the stale limit, even by a live process of another host', () => {
    const path = lockPath();
    mkdirSync(path);
    writeFileSync(join(path, 'holder.json'), JSON.stringify({ host: 'elsewhere', pid: 1, start: '1', token: 't', at: Date.now() - 120_000 }));
    expect(new WorkspaceLock(path, { timeoutMs: 200 }).withLock(() => 'mine')).toBe('mine');
  });
});
