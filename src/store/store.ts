/**
 * The workspace store: every record of every collection, in memory, kept in
 * step with the files (see journal.ts) that several processes share.
 *
 * - Reads are from memory; `refresh()` takes in what other processes wrote.
 * - A write is a transaction: under the workspace lock the store first
 *   catches up, then the caller's function reads the latest state and makes
 *   its changes, which are appended as one journal line. Nothing another
 *   process wrote is overwritten by a stale copy, so no update is lost.
 * - When the journal grows past a share of the checkpoint, the whole state is
 *   written as the next generation (compaction), still under the lock.
 */
import { mkdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { BugbenchError } from '../errors.js';
import { workspaceDir } from '../paths.js';
import { JournalFiles, StoreFormatError, type Change, type Checkpoint } from './journal.js';
import { WorkspaceLock, type LockOptions } from './lock.js';
import { migrateFolders } from './migrate.js';
import { COLLECTIONS, SCHEMA_VERSION, type CollectionName, type Collections } from './records.js';

export class RecordNotFoundError extends BugbenchError {
  constructor(collection: string, id: string) {
    const noun = collection.replace(/s$/, '');
    // Where the ones there are listed, for bugs, runs and jobs.
    const lister: Record<string, string> = { bug: 'bugbench bugs', run: 'bugbench runs', job: 'bugbench queue list' };
    super('BB_NOT_FOUND', `no ${noun} "${id}" in the workspace store${lister[noun] ? `; list them with \`${lister[noun]}\`` : ''}`);
  }
}

export interface StoreOptions {
  /** The workspace folder (default: BUGBENCH_HOME or ./.bugbench). */
  root?: string;
  /** fdatasync every transaction (default true): a machine crash then loses at most the one in flight. */
  durable?: boolean;
  /** Compact once the journal is larger than this many bytes and a quarter of the checkpoint. */
  compactAtBytes?: number;
  lock?: LockOptions;
}

type Row = Record<string, unknown> & { id: string };

export class Transaction {
  readonly changes: Change[] = [];
  private readonly pending = new Map<string, Row | null>();

  constructor(private readonly store: Store) {}

  get<C extends CollectionName>(collection: C, id: string): Collections[C] | undefined {
    const key = `${collection}\0${id}`;
    if (this.pending.has(key)) return (this.pending.get(key) ?? undefined) as Collections[C] | undefined;
    return this.store.get(collection, id);
  }

  put<C extends CollectionName>(collection: C, record: Collections[C]): void {
    const row = { ...(record as unknown as Row) };
    this.pending.set(`${collection}\0${row.id}`, row);
    this.changes.push({ c: collection, op: 'put', id: row.id, v: row });
  }

  /** Sets some fields of an existing record; throws RecordNotFoundError if there is none. */
  patch<C extends CollectionName>(collection: C, id: string, fields: Partial<Collections[C]>): Collections[C] {
    const current = this.get(collection, id);
    if (!current) throw new RecordNotFoundError(collection, id);
    const next = { ...(current as unknown as Row), ...(fields as Record<string, unknown>), id } as Row;
    this.pending.set(`${collection}\0${id}`, next);
    this.changes.push({ c: collection, op: 'patch', id, v: fields as Record<string, unknown> });
    return next as unknown as Collections[C];
  }

  delete(collection: CollectionName, id: string): void {
    this.pending.set(`${collection}\0${id}`, null);
    this.changes.push({ c: collection, op: 'delete', id });
  }
}

export class Store {
  private readonly files: JournalFiles;
  private readonly lock: WorkspaceLock;
  private readonly data = new Map<string, Map<string, Row>>();
  private generation = 0;
  private offset = 0;
  private checkpointBytes = 0;
  private readonly listeners = new Set<() => void>();

  private constructor(
    readonly root: string,
    private readonly options: StoreOptions,
  ) {
    this.files = new JournalFiles(join(root, 'store'));
    this.lock = new WorkspaceLock(join(root, 'store', 'lock'), options.lock);
  }

  /** Opens (creating or migrating if need be) the store of a workspace. */
  static open(options: StoreOptions = {}): Store {
    const root = resolve(options.root ?? workspaceDir());
    mkdirSync(join(root, 'store'), { recursive: true });
    const store = new Store(root, options);
    if (!store.files.exists()) {
      store.lock.withLock(() => {
        if (store.files.exists()) return;
        const collections = migrateFolders(root);
        store.files.writeGeneration({ schemaVersion: SCHEMA_VERSION, generation: 1, collections });
      });
    }
    store.load();
    return store;
  }

  /** A path the store keeps (relative to the workspace) as an absolute path. */
  abs(path: string): string {
    return isAbsolute(path) ? path : join(this.root, path);
  }

  /** An absolute path inside the workspace as the store keeps it. */
  rel(path: string): string {
    const inside = relative(this.root, resolve(path));
    return inside.startsWith('..') ? resolve(path) : inside;
  }

  get<C extends CollectionName>(collection: C, id: string): Collections[C] | undefined {
    return this.table(collection).get(id) as Collections[C] | undefined;
  }

  /** Every record of a collection, in the order they were first written. */
  all<C extends CollectionName>(collection: C): Collections[C][] {
    return [...this.table(collection).values()] as unknown as Collections[C][];
  }

  count(collection: CollectionName): number {
    return this.table(collection).size;
  }

  /** Called after this store takes in changes (its own or another process's). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes in what other processes wrote since; true if anything changed. */
  refresh(): boolean {
    for (let attempt = 0; ; attempt++) {
      try {
        const pointer = this.files.pointer();
        if (pointer.generation !== this.generation) {
          this.load();
          return true;
        }
        const tail = this.files.readFrom(this.generation, this.offset);
        for (const transaction of tail.transactions) this.apply(transaction);
        this.offset = tail.offset;
        if (tail.transactions.length > 0) this.notify();
        return tail.transactions.length > 0;
      } catch (error) {
        // A compaction in another process removed the files between our reads: read again.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw error;
      }
    }
  }

  /**
   * Runs `work` on the latest state under the workspace lock and appends its
   * changes as one transaction. If `work` throws, nothing is written.
   */
  transact<T>(work: (tx: Transaction) => T): T {
    return this.lock.withLock(() => {
      this.refresh();
      const tx = new Transaction(this);
      const result = work(tx);
      if (tx.changes.length > 0) {
        this.offset = this.files.append(this.generation, this.offset, tx.changes, this.options.durable ?? true);
        this.apply(tx.changes);
        this.maybeCompact();
        this.notify();
      }
      return result;
    });
  }

  /** Writes the whole state as a new generation (normally done by transactions as the journal grows). */
  compact(): void {
    this.lock.withLock(() => {
      this.refresh();
      const checkpoint = this.snapshot(this.generation + 1);
      this.files.writeGeneration(checkpoint);
      this.generation = checkpoint.generation;
      this.offset = 0;
      this.checkpointBytes = JSON.stringify(checkpoint).length;
    });
  }

  private maybeCompact(): void {
    const threshold = Math.max(this.options.compactAtBytes ?? 4 * 1024 * 1024, this.checkpointBytes / 4);
    if (this.offset > threshold) this.compact();
  }

  private snapshot(generation: number): Checkpoint {
    const collections: Checkpoint['collections'] = {};
    for (const name of COLLECTIONS) collections[name] = [...this.table(name).values()];
    return { schemaVersion: SCHEMA_VERSION, generation, collections };
  }

  private load(): void {
    for (let attempt = 0; ; attempt++) {
      try {
        const pointer = this.files.pointer();
        if (pointer.schemaVersion > SCHEMA_VERSION) {
          throw new StoreFormatError(
            `the workspace ${this.root} was written by a newer bugbench (store schema ${pointer.schemaVersion}; this one reads ${SCHEMA_VERSION}); upgrade bugbench`,
          );
        }
        const checkpoint = this.files.readCheckpoint(pointer.generation);
        this.data.clear();
        for (const [name, rows] of Object.entries(checkpoint.collections ?? {})) {
          if (!Array.isArray(rows)) throw new StoreFormatError(`the checkpoint of ${this.root} holds "${name}" in a form this bugbench does not read`);
          const table = new Map<string, Row>();
          for (const row of rows) table.set(row.id, row);
          this.data.set(name, table);
        }
        this.generation = pointer.generation;
        this.checkpointBytes = this.files.checkpointSize(pointer.generation);
        const tail = this.files.readFrom(this.generation, 0);
        for (const transaction of tail.transactions) this.apply(transaction);
        this.offset = tail.offset;
        this.notify();
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw error;
      }
    }
  }

  private table(name: string): Map<string, Row> {
    let table = this.data.get(name);
    if (!table) this.data.set(name, (table = new Map()));
    return table;
  }

  private apply(changes: Change[]): void {
    for (const change of changes) {
      const table = this.table(change.c);
      if (change.op === 'delete') table.delete(change.id);
      else if (change.op === 'put') table.set(change.id, { ...change.v, id: change.id });
      else {
        const current = table.get(change.id);
        if (current) table.set(change.id, { ...current, ...change.v, id: change.id });
      }
    }
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

const opened = new Map<string, Store>();

/** The store of the workspace, opened once per process and shared. */
export function openStore(options: StoreOptions = {}): Store {
  const root = resolve(options.root ?? workspaceDir());
  let store = opened.get(root);
  if (!store) {
    store = Store.open({ ...options, root });
    opened.set(root, store);
  } else store.refresh();
  return store;
}
