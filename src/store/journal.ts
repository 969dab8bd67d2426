/**
 * The files behind the store. The state is a checkpoint (a lowdb document)
 * plus an append-only journal of the transactions made since, one JSON line
 * each. A generation number names the pair in use (`CURRENT`); compaction
 * writes the whole state as the next generation's checkpoint and switches the
 * pointer, so readers never see a half-written state:
 *
 *   store/CURRENT                 {"generation": 7, "schemaVersion": 1}
 *   store/checkpoint-7.json       the state when generation 7 began
 *   store/journal-7.jsonl         one transaction a line since then
 *
 * A line is the unit of atomicity: a process killed mid-append leaves a line
 * without its newline, which readers ignore and the next writer cuts off.
 */
import { chownSync, closeSync, existsSync, fdatasyncSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LowSync } from 'lowdb';
import { DataFileSync } from 'lowdb/node';
import { BugbenchError } from '../errors.js';
import { writeJsonAtomic } from '../atomic.js';
import { readJsonFile } from '../json-file.js';

export interface Change {
  /** Collection. */
  c: string;
  op: 'put' | 'patch' | 'delete';
  id: string;
  v?: Record<string, unknown>;
}

export interface Checkpoint {
  schemaVersion: number;
  generation: number;
  /** Each collection's records in the order they were first written (arrays parse faster than maps). */
  collections: Record<string, (Record<string, unknown> & { id: string })[]>;
}

interface Pointer {
  generation: number;
  schemaVersion: number;
}

export class StoreFormatError extends BugbenchError {
  constructor(message: string) {
    super('BB_STORE_FORMAT', message);
  }
}

export class JournalFiles {
  constructor(readonly dir: string) {}

  private checkpointPath(generation: number): string {
    return join(this.dir, `checkpoint-${generation}.json`);
  }

  journalPath(generation: number): string {
    return join(this.dir, `journal-${generation}.jsonl`);
  }

  exists(): boolean {
    return existsSync(join(this.dir, 'CURRENT'));
  }

  pointer(): Pointer {
    const pointer = readJsonFile<Pointer>(join(this.dir, 'CURRENT'));
    if (!pointer || !Number.isInteger(pointer.generation)) throw new StoreFormatError(`${join(this.dir, 'CURRENT')} is unreadable`);
    return pointer;
  }

  checkpointSize(generation: number): number {
    return statSync(this.checkpointPath(generation)).size;
  }

  readCheckpoint(generation: number): Checkpoint {
    const db = new LowSync<Checkpoint | null>(
      new DataFileSync<Checkpoint | null>(this.checkpointPath(generation), { parse: JSON.parse, stringify: JSON.stringify }),
      null,
    );
    db.read();
    if (!db.data) throw Object.assign(new Error(`no checkpoint ${generation}`), { code: 'ENOENT' });
    return db.data;
  }

  /** Starts generation `checkpoint.generation`: its checkpoint, an empty journal, then the pointer. */
  writeGeneration(checkpoint: Checkpoint): void {
    mkdirSync(this.dir, { recursive: true });
    const db = new LowSync<Checkpoint>(
      new DataFileSync<Checkpoint>(this.checkpointPath(checkpoint.generation), { parse: JSON.parse, stringify: JSON.stringify }),
      checkpoint,
    );
    db.write();
    closeSync(openSync(this.journalPath(checkpoint.generation), 'w'));
    writeJsonAtomic(join(this.dir, 'CURRENT'), { generation: checkpoint.generation, schemaVersion: checkpoint.schemaVersion });
    // A workspace handed to another user (cluster jobs run as the job user) stays theirs when root writes a generation.
    const owner = statSync(this.dir);
    if (process.getuid?.() === 0 && owner.uid !== 0) {
      for (const file of [this.checkpointPath(checkpoint.generation), this.journalPath(checkpoint.generation), join(this.dir, 'CURRENT')]) chownSync(file, owner.uid, owner.gid);
    }
    // The generation before the last stays for readers that were in the middle of it; older ones go.
    for (let old = checkpoint.generation - 2; old >= 1; old--) {
      if (!existsSync(this.checkpointPath(old))) break;
      rmSync(this.checkpointPath(old), { force: true });
      rmSync(this.journalPath(old), { force: true });
    }
  }

  /**
   * The complete lines of a journal from byte `offset` on, and the offset just
   * after the last complete one. A cut-off last line is left for later.
   */
  readFrom(generation: number, offset: number): { transactions: Change[][]; offset: number; size: number } {
    const fd = openSync(this.journalPath(generation), 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= offset) return { transactions: [], offset, size };
      const buffer = Buffer.alloc(size - offset);
      let read = 0;
      while (read < buffer.length) {
        const n = readSync(fd, buffer, read, buffer.length - read, offset + read);
        if (n === 0) break;
        read += n;
      }
      const end = buffer.lastIndexOf(0x0a, read - 1);
      if (end < 0) return { transactions: [], offset, size };
      const transactions: Change[][] = [];
      for (const line of buffer.toString('utf8', 0, end).split('\n')) {
        if (line === '') continue;
        try {
          transactions.push((JSON.parse(line) as { t: Change[] }).t);
        } catch {
          throw new StoreFormatError(`${this.journalPath(generation)} holds a line that is not JSON; the store needs repair`);
        }
      }
      return { transactions, offset: offset + end + 1, size };
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Appends one transaction at `offset` (where the caller, holding the lock,
   * has read up to); a partial line left there by a crash is cut off first.
   * Returns the new end.
   */
  append(generation: number, offset: number, changes: Change[], durable: boolean): number {
    const line = Buffer.from(`${JSON.stringify({ t: changes })}\n`, 'utf8');
    const fd = openSync(this.journalPath(generation), 'r+');
    try {
      if (fstatSync(fd).size !== offset) ftruncateSync(fd, offset);
      let written = 0;
      while (written < line.length) written += writeSync(fd, line, written, line.length - written, offset + written);
      if (durable) fdatasyncSync(fd);
      return offset + line.length;
    } finally {
      closeSync(fd);
    }
  }
}
