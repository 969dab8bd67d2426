/**
 * What the bwrap kind keeps on the node, under one folder of this user's:
 * each packed image unpacked once (a shared read-only lower layer:
 * unpacked.ts), each sandbox's writable layer with a record of who owns it,
 * each volume. A
 * sandbox's folder outlives a bugbench killed with -9; the next start reads
 * the owner in the record and removes what a dead process left.
 */
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processStartTime } from '../../process-identity.js';
import { labelBelongsTo, LABEL_RUN, ownerAlive } from '../owner.js';
import { SetupError } from '../../errors.js';
import { removeTree } from './tools.js';

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
  /** The unpacked image it is an overlay of (absent in records of bugbench before 2026-11-27). */
  lower?: string;
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
  // The recorded bwrap, and any process that names the folder: the bwrap of a record that never got its pid,
  // or a child bwrap had not let go yet when bwrap was killed, which would wait for ever.
  const recorded = holderRuns(record) ? [record.pid!] : [];
  const holders = [...new Set([...recorded, ...(await processesNaming(`${sandboxDir(root, record.id)}/`))])];
  for (const pid of holders) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone in the meantime.
    }
  }
  await removeTree(sandboxDir(root, record.id));
}

/** This user's processes whose command line names `folder` (a sandbox's bwrap names its folder). */
async function processesNaming(folder: string): Promise<number[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  const found = await Promise.all(
    pids.map(async (pid) => {
      const args = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      return args.split('\0').some((arg) => arg.startsWith(folder)) ? Number(pid) : undefined;
    }),
  );
  return found.filter((pid): pid is number => pid !== undefined && pid !== process.pid);
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
