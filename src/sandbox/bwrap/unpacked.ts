/**
 * The packed images unpacked on this node for this user: each version of a
 * packed file (its path, size and modification time) once, under the state
 * folder's `images/`, shared read-only by every sandbox of it. Beside each is
 * a note of the file it came from, touched whenever a sandbox is made of it.
 *
 * Before another image is unpacked, an unpacked one goes when no sandbox's
 * record names it and nothing asked for it for a while, and either its file
 * changed or went (a version nothing will ask for again) or the disk lacks
 * room for the new one (the least recently used first, until there is room).
 * It is renamed out of the way first and looked at again, so a sandbox made of
 * it meanwhile keeps it: a mount never sees it half removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, statfs, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { currentProcess, processAlive, processStartTime, type ProcessIdentity } from '../../process-identity.js';
import { ensurePrivateRoot, holderRuns, readRecords } from './state.js';
import { removeTree, runTool } from './tools.js';

/** The packed configuration's place in every packed image: unpacked, it says the unpack finished. */
const MARKER = '.bugbench-image.json';
const NOTE_SUFFIX = '.source.json';
/** An image asked for this recently is kept whatever else holds: it covers the time between asking and the sandbox's record naming it. */
export const RECENT_USE_MS = 10 * 60_000;
/** Room kept free beyond the image being unpacked. */
export const SPARE_BYTES = 1024 ** 3;

/** What the note beside an unpacked image says. */
interface SourceNote {
  file: string;
  size: number;
  mtimeMs: number;
}

export interface UnpackedImage {
  lower: string;
  /** When a sandbox last asked for it (its note's modification time, else the folder's). */
  lastUsedMs: number;
  /** Its packed file changed or went since it was unpacked; false when no note says which file it is. */
  stale: boolean;
}

const unpacking = new Map<string, Promise<string>>();

/**
 * The image file's lower layer: unpacked once per file version and shared by
 * every sandbox of it. Unpacked to a temporary folder and renamed, so two
 * processes unpacking at once leave one; and one process of this user unpacks
 * a file at a time (the tasks of an array on one node wait for the first
 * instead of each unpacking it). `bytes` is the image's size, the room it needs.
 */
export async function lowerLayer(root: string, file: string, bytes = 0, again = true): Promise<string> {
  const lower = await lowerPath(root, file);
  let pending = unpacking.get(lower);
  if (!pending) {
    pending = unpack(root, file, lower, bytes);
    pending.catch(() => unpacking.delete(lower));
    unpacking.set(lower, pending);
  }
  await pending;
  if (!unpackedAt(lower) && again) {
    // Removed since by another process of this user (unused for a while): unpacked again.
    unpacking.delete(lower);
    return lowerLayer(root, file, bytes, false);
  }
  await noteUse(lower, file);
  return lower;
}

/** Where this version of the image file is (or would be) unpacked. */
export async function lowerPath(root: string, file: string): Promise<string> {
  const { size, mtimeMs } = await stat(file);
  return join(root, 'images', createHash('sha256').update(`${file}\0${size}\0${mtimeMs}`).digest('hex').slice(0, 16));
}

/** True once this version of the image file is unpacked. */
export async function isUnpacked(root: string, file: string): Promise<boolean> {
  return unpackedAt(await lowerPath(root, file));
}

const unpackedAt = (lower: string) => existsSync(join(lower, MARKER));
const noteOf = (lower: string) => `${lower}${NOTE_SUFFIX}`;

/**
 * Says which file the image came from (once) and that a sandbox asked for it
 * now. Bookkeeping only: a note that cannot be written costs the image its
 * place in the order of removal, never the sandbox.
 */
async function noteUse(lower: string, file: string): Promise<void> {
  const note = noteOf(lower);
  const now = new Date();
  if (await utimes(note, now, now).then(() => true, () => false)) return;
  // Two lanes of one check ask at once: each writes its own temporary file, the last rename wins.
  const temp = `${note}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const { size, mtimeMs } = await stat(file);
    const text: SourceNote = { file, size, mtimeMs };
    await writeFile(temp, JSON.stringify(text));
    await rename(temp, note);
  } catch {
    await removeTree(temp);
  }
}

async function unpack(root: string, file: string, lower: string, bytes: number): Promise<string> {
  const images = join(root, 'images');
  if (unpackedAt(lower)) return lower;
  await ensurePrivateRoot(root);
  await mkdir(images, { recursive: true });
  const release = await unpackTurn(lower, () => unpackedAt(lower));
  try {
    if (unpackedAt(lower)) return lower;
    // Room first; a failure to make it is no reason not to try.
    await makeRoom(root, lower, bytes).catch(() => undefined);
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
    const holder = await readHolder(lock);
    const since = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (holder ? !processAlive(holder) : since > 10_000) {
      if (holder?.pid) await removeTree(unpackingFolder(lower, holder.pid));
      await removeTree(lock);
    } else await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Who holds `lock`; undefined while the holder has not finished saying (the file is written after the folder is made). */
async function readHolder(lock: string): Promise<ProcessIdentity | undefined> {
  try {
    return JSON.parse(await readFile(join(lock, 'holder.json'), 'utf8')) as ProcessIdentity;
  } catch {
    return undefined;
  }
}

/** Every image unpacked under `root`; removal folders whose remover died are removed on the way. */
export async function unpackedImages(root: string): Promise<UnpackedImage[]> {
  const images = join(root, 'images');
  const names = await readdir(images).catch(() => [] as string[]);
  for (const name of names) {
    const removing = /^[0-9a-f]{16}\.(\d+)\.removing$/.exec(name);
    if (removing && processStartTime(Number(removing[1])) === undefined) await removeTree(join(images, name));
  }
  const found = await Promise.all(names.filter((name) => /^[0-9a-f]{16}$/.test(name)).map((name) => describeUnpacked(join(images, name))));
  return found.filter((image): image is UnpackedImage => image !== undefined);
}

async function describeUnpacked(lower: string): Promise<UnpackedImage | undefined> {
  if (!unpackedAt(lower)) return undefined;
  const folder = await stat(lower).catch(() => undefined);
  if (!folder) return undefined;
  const note = await stat(noteOf(lower)).catch(() => undefined);
  const source = await readFile(noteOf(lower), 'utf8').then((text) => JSON.parse(text) as SourceNote).catch(() => undefined);
  const now = source && (await stat(source.file).catch(() => undefined));
  const stale = source !== undefined && (!now || now.size !== source.size || now.mtimeMs !== source.mtimeMs);
  return { lower, lastUsedMs: Math.max(folder.mtimeMs, note?.mtimeMs ?? 0), stale };
}

/** The free bytes of the file system `path` is (or would be) on. */
export async function freeBytes(path: string): Promise<number | null> {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    const fs = await statfs(at);
    return fs.bavail * fs.bsize;
  } catch {
    return null;
  }
}

/**
 * Removes the unpacked images nothing uses that are stale, then, while the
 * disk has less than `bytes` and a spare gigabyte free, the least recently
 * used of the others; never `keep`. Returns the folders removed.
 */
export async function makeRoom(root: string, keep: string, bytes: number, free: (path: string) => Promise<number | null> = freeBytes): Promise<string[]> {
  const records = await readRecords(root);
  // A sandbox of a bugbench from before records named their image: any image could be its.
  if (records.some((record) => record.lower === undefined && holderRuns(record))) return [];
  const used = new Set(records.map((record) => record.lower));
  const now = Date.now();
  const idle = (await unpackedImages(root)).filter((image) => image.lower !== keep && !used.has(image.lower) && now - image.lastUsedMs > RECENT_USE_MS);
  const removed: string[] = [];
  for (const image of idle.filter((i) => i.stale)) if (await removeUnused(root, image)) removed.push(image.lower);
  for (const image of idle.filter((i) => !i.stale).sort((a, b) => a.lastUsedMs - b.lastUsedMs)) {
    const left = await free(join(root, 'images'));
    if (left === null || left >= bytes + SPARE_BYTES) break;
    if (await removeUnused(root, image)) removed.push(image.lower);
  }
  return removed;
}

/**
 * Renames the image out of the way (a sandbox made of it from now on finds
 * it gone and unpacks it again), then looks again: a record naming it or a
 * use noted since it was chosen puts it back; else it is removed.
 */
async function removeUnused(root: string, image: UnpackedImage): Promise<boolean> {
  const aside = `${image.lower}.${process.pid}.removing`;
  if (!(await rename(image.lower, aside).then(() => true, () => false))) return false;
  const note = await stat(noteOf(image.lower)).catch(() => undefined);
  const named = (await readRecords(root)).some((record) => record.lower === image.lower);
  if (named || (note && note.mtimeMs > image.lastUsedMs)) {
    // Unless it was unpacked again meanwhile: then this copy goes.
    await rename(aside, image.lower).catch(() => removeTree(aside));
    return false;
  }
  await removeTree(noteOf(image.lower));
  await removeTree(aside);
  return true;
}
