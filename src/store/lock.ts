/**
 * A lock shared by every bugbench process on a workspace, also across machines
 * that share the folder: the lock is a directory, since `mkdir` is atomic on
 * local and network filesystems alike. The holder writes who it is inside.
 * A lock whose holder died (same host, process gone) or that is older than
 * `staleMs` (any host; locks are held for milliseconds) is broken by renaming
 * it away, which only one waiting process can win.
 *
 * The store's critical sections are short and synchronous, so waiting is a
 * synchronous sleep too: a caller never interleaves with itself.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { BugbenchError } from '../errors.js';
import { currentProcess, processAlive, type ProcessIdentity } from '../process-identity.js';

export class LockTimeoutError extends BugbenchError {
  constructor(path: string, holder: string) {
    super(
      'BB_STORE_LOCKED',
      `the workspace store is locked (${path}) by ${holder}; if no bugbench process is working on this workspace, remove that folder`,
    );
  }
}

interface Holder extends ProcessIdentity {
  token: string;
  at: number;
}

export interface LockOptions {
  /** Give up after waiting this long. */
  timeoutMs?: number;
  /** A lock held longer than this is taken to be abandoned, whoever holds it. */
  staleMs?: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
export function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function readHolder(dir: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'holder.json'), 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

function describeHolder(holder: Holder | undefined): string {
  return holder ? `process ${holder.pid} on ${holder.host}` : 'a process that has not said who it is';
}

export class WorkspaceLock {
  private token: string | undefined;
  private depth = 0;

  constructor(
    readonly path: string,
    private readonly options: LockOptions = {},
  ) {}

  /** Runs `work` holding the lock; re-entrant within this object. */
  withLock<T>(work: () => T): T {
    this.acquire();
    try {
      return work();
    } finally {
      this.release();
    }
  }

  acquire(): void {
    if (this.depth++ > 0) return;
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    let pause = 1;
    for (;;) {
      try {
        mkdirSync(this.path);
        const token = randomUUID();
        const holder: Holder = { ...currentProcess(), token, at: Date.now() };
        writeFileSync(join(this.path, 'holder.json'), JSON.stringify(holder));
        this.token = token;
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          this.depth--;
          throw error;
        }
      }
      if (this.breakIfAbandoned()) continue;
      if (Date.now() > deadline) {
        this.depth--;
        throw new LockTimeoutError(this.path, describeHolder(readHolder(this.path)));
      }
      sleepSync(pause);
      pause = Math.min(pause * 2, 20);
    }
  }

  release(): void {
    if (--this.depth > 0) return;
    const token = this.token;
    this.token = undefined;
    // Only our own lock goes: had it been broken as abandoned, another process may hold it now.
    if (token !== undefined && readHolder(this.path)?.token === token) rmSync(this.path, { recursive: true, force: true });
  }

  /** Removes a lock left by a dead process or held past `staleMs`; true if it did. */
  private breakIfAbandoned(): boolean {
    const holder = readHolder(this.path);
    let age: number;
    try {
      age = Date.now() - (holder?.at ?? statSync(this.path).mtimeMs);
    } catch {
      return true; // gone meanwhile: try again at once
    }
    const staleMs = this.options.staleMs ?? 60_000;
    // A holder that has not written its name yet is given a moment.
    const dead = holder ? !processAlive(holder) : age > 2_000;
    if (!dead && age < staleMs) return false;
    const aside = `${this.path}.broken-${randomUUID().slice(0, 8)}`;
    try {
      renameSync(this.path, aside);
    } catch {
      return true; // another waiter broke it first
    }
    // If the lock changed hands between the look and the rename, put the live one back.
    const taken = readHolder(aside);
    if (holder && taken && taken.token !== holder.token) {
      try {
        renameSync(aside, this.path);
        return false;
      } catch {
        // a new lock already stands; the one set aside was being replaced anyway
      }
    }
    rmSync(aside, { recursive: true, force: true });
    return true;
  }
}
