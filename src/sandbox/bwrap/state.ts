/**
 * What the bwrap kind keeps on the node, under one folder of this user's:
 * each packed image unpacked once (a shared read-only lower layer), each
 * sandbox's writable layer with a record of who owns it, each volume. A
 * sandbox's folder outlives a bugbench killed with -9; the next start reads
 * the owner in the record and removes what a dead process left.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentProcess, processAlive, processStartTime } from '../../process-identity.js';
import { labelBelongsTo, LABEL_RUN, ownerAlive } from '../owner.js';
import { SetupError } from '../../errors.js';
import { removeTree, runTool } from './tools.js';

/** This user's folder for the kind's state (BUGBENCH_BWRAP_STATE overrides it). */
export function stateRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.BUGBENCH_BWRAP_STATE || join(tmpdir(), `bugbench-bwrap-${process.getuid?.() ?? 'user'}`);
}

/**
 * Makes the state folder this user's alone (mode 0700) before anything goes in
 * it: under a shared /tmp, another user could otherwise read each sandbox's
 * writable layer, or have made the folder (or a link in its place) first to
 * receive what the sandboxes write.
 */
export async function ensurePrivateRoot(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const info = await lstat(root);
  const uid = process.getuid?.();
  if (info.isSymbolicLink() || !info.isDirectory() || (uid !== undefined && info.uid !== uid)) {
    const what = info.isSymbolicLink() ? 'a symbolic link' : !info.isDirectory() ? 'not a folder' : `owned by uid ${info.uid}, not by this user (${uid})`;
    throw new SetupError(`the bwrap state folder ${root} is ${what}; remove it, or set BUGBENCH_BWRAP_STATE to a folder of your own`);
  }
  if ((info.mode & 0o077) !== 0) await chmod(root, 0o700);
}

/** A sandbox's record: its labels (run, owner) and the process that holds it. */
export interface SandboxRecord {
  id: string;
  image: string;
  labels: Record<string, string>;
  /** The outer bwrap process: killing it ends the sandbox. */
  pid?: number;
  pidStart?: string;
  /** Set before its processes are ended on purpose: a sandbox being removed has not been stopped by anything else. */
  removing?: boolean;
}

const RECORD = 'sandbox.json';

export function sandboxDir(root: string, id: string): string {
  return join(root, 'sandboxes', id);
}

export async function writeRecord(root: string, record: SandboxRecord): Promise<void> {
  const dir = sandboxDir(root, record.id);
  await writeFile(join(dir, `${RECORD}.tmp`), JSON.stringify(record));
  await rename(join(dir, `${RECORD}.tmp`), join(dir, RECORD));
}

/** Every sandbox folder's record; a folder with none (its maker died while writing it) is one without labels. */
export async function readRecords(root: string): Promise<SandboxRecord[]> {
  const dir = join(root, 'sandboxes');
  if (!existsSync(dir)) return [];
  const ids = await readdir(dir);
  return Promise.all(
    ids.map(async (id) => {
      try {
        return JSON.parse(await readFile(join(dir, id, RECORD), 'utf8')) as SandboxRecord;
      } catch {
        return { id, image: '', labels: {} };
      }
    }),
  );
}

/** True while the record's bwrap process runs (the same process: its start time matches). */
export function holderRuns(record: SandboxRecord): boolean {
  return record.pid !== undefined && processStartTime(record.pid) === record.pidStart;
}

/** Ends a sandbox's processes (if they still run) and removes its folder. */
export async function removeSandboxState(root: string, record: SandboxRecord): Promise<void> {
  // Said first, so that a look at the sandboxes meanwhile does not take it for one something else stopped.
  if (existsSync(sandboxDir(root, record.id))) await writeRecord(root, { ...record, removing: true }).catch(() => undefined);
  if (record.pid !== undefined && processStartTime(record.pid) === record.pidStart) {
    try {
      process.kill(record.pid, 'SIGKILL');
    } catch {
      // Gone in the meantime.
    }
  }
  await removeTree(sandboxDir(root, record.id));
}

/** Removes the sandboxes `chosen` picks; returns their ids. */
export async function reapSandboxes(root: string, chosen: (record: SandboxRecord) => boolean): Promise<string[]> {
  const gone = (await readRecords(root)).filter(chosen);
  await Promise.all(gone.map((record) => removeSandboxState(root, record)));
  return gone.map((record) => record.id);
}

/** A record a dead bugbench left (or one whose folder has no record at all). */
export function orphaned(record: SandboxRecord): boolean {
  return !ownerAlive(record.labels);
}

export function ofWorks(works: readonly string[]): (record: SandboxRecord) => boolean {
  return (record) => labelBelongsTo(record.labels[LABEL_RUN] ?? '', works);
}

const unpacking = new Map<string, Promise<string>>();

/**
 * The image file's lower layer: unpacked once per file version (path, size,
 * modification time) and shared by every sandbox of it. Unpacked to a
 * temporary folder and renamed, so two processes unpacking at once leave one;
 * and one process of this user unpacks a file at a time (the tasks of an
 * array on one node wait for the first instead of each unpacking it).
 */
export function lowerLayer(root: string, file: string): Promise<string> {
  let pending = unpacking.get(file);
  if (!pending) {
    pending = unpack(root, file);
    pending.catch(() => unpacking.delete(file));
    unpacking.set(file, pending);
  }
  return pending;
}

/** Where this version of the image file is (or would be) unpacked. */
export async function lowerPath(root: string, file: string): Promise<string> {
  const { size, mtimeMs } = await stat(file);
  return join(root, 'images', createHash('sha256').update(`${file}\0${size}\0${mtimeMs}`).digest('hex').slice(0, 16));
}

/** True once this version of the image file is unpacked. */
export async function isUnpacked(root: string, file: string): Promise<boolean> {
  return existsSync(join(await lowerPath(root, file), '.bugbench-image.json'));
}

async function unpack(root: string, file: string): Promise<string> {
  const lower = await lowerPath(root, file);
  const images = join(root, 'images');
  const unpacked = () => existsSync(join(lower, '.bugbench-image.json'));
  if (unpacked()) return lower;
  await ensurePrivateRoot(root);
  await mkdir(images, { recursive: true });
  const release = await unpackTurn(lower, unpacked);
  try {
    if (unpacked()) return lower;
    const temp = unpackingFolder(lower, process.pid);
    await removeTree(temp);
    try {
      await runTool('unsquashfs', ['-q', '-n', '-d', temp, file]);
      // Unpacked by an ordinary user, every file is that user's, and so inside a sandbox its user's, whoever it runs as.
      // root would keep the image's owners, which a sandbox's user (mapped to this one) could not write: made the same.
      if (process.getuid?.() === 0) await runTool('chown', ['-R', '-h', '0:0', temp]);
      // Taken by another process that unpacked it first: this copy goes.
      await rename(temp, lower).catch(() => undefined);
    } finally {
      // A failed unpack (the file gone or cut short, no room) leaves nothing either.
      await removeTree(temp);
    }
  } finally {
    await release();
  }
  return lower;
}

const unpackingFolder = (lower: string, pid: number) => `${lower}.${pid}.tmp`;

/**
 * Waits for this process's turn to unpack into `lower`: a folder beside it
 * names the holder; a holder that died (or never said who it is) is taken
 * over, with what it had unpacked so far, and the wait ends early once
 * `done` (the holder unpacked it). Returns the release.
 */
async function unpackTurn(lower: string, done: () => boolean): Promise<() => Promise<void>> {
  const lock = `${lower}.unpacking`;
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'holder.json'), JSON.stringify(currentProcess()));
      return () => removeTree(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (done()) return async () => undefined;
    const holder = await readFile(join(lock, 'holder.json'), 'utf8').then((text) => JSON.parse(text) as Parameters<typeof processAlive>[0], () => undefined);
    const since = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (holder ? !processAlive(holder) : since > 10_000) {
      if (holder?.pid) await removeTree(unpackingFolder(lower, holder.pid));
      await removeTree(lock);
    } else await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
