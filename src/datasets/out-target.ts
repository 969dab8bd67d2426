/**
 * Where an `--out` goes, decided once for every writer: standard output for
 * `-` (and /dev/stdout, which names it), a regular file or a new path for a
 * file, an empty folder, an earlier export or a new path for a folder.
 * Anything else is refused before any work is done: a file is written beside
 * its place and renamed over it, and a rename over /dev/stdout, /dev/null or
 * a symbolic link replaces the device or the link itself with a plain file.
 */
import { closeSync, fsyncSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync, type Stats } from 'node:fs';
import { once } from 'node:events';
import { basename, dirname, join, resolve } from 'node:path';
import { errorMessage } from '../errors.js';
import { ExportError } from './export-error.js';

/** The names of standard output an `--out` may give. */
export const STDOUT_NAMES: readonly string[] = ['-', '/dev/stdout', '/dev/fd/1', '/proc/self/fd/1'];

/** The file every folder export holds at its top: what it is and where it came from. */
export const EXPORT_MANIFEST = '.bugbench-export.json';

export function isStdout(out: string): boolean {
  return STDOUT_NAMES.includes(out);
}

/** What a path is, in words, from lstat (a link is a link, not what it points to). */
function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFile()) return 'a file';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ExportError(`cannot write ${path}: ${errorMessage(error)}`);
  }
}

/** Why `out` may not take a file export, or undefined when it may (a regular file or a new path). */
export function fileRefusal(out: string): string | undefined {
  const stats = lstatOrUndefined(out);
  if (!stats || stats.isFile()) return undefined;
  return `${out} is ${kindOf(stats)}, not a regular file; give a new path or a regular file (or - for standard output)`;
}

/** The format an earlier export in `out` says it is, from its manifest; undefined when it does not say. */
function earlierFormat(out: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(out, EXPORT_MANIFEST), 'utf8')) as { format?: unknown };
    return typeof manifest.format === 'string' ? manifest.format : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why `out` may not take a folder export (of `format`, when given), or
 * undefined when it may: new, empty, or an earlier bugbench export of the same
 * format, which it replaces. An export of another format there is the user's
 * data: replacing it would lose it.
 */
export function folderRefusal(out: string, format?: string): string | undefined {
  if (isStdout(out)) return 'this format writes a folder, which cannot go to standard output; give --out DIR';
  const stats = lstatOrUndefined(out);
  if (!stats) return undefined;
  if (!stats.isDirectory()) return `${out} is ${kindOf(stats)}, not a folder; give a new path or an empty folder`;
  const names = readdirSync(out);
  if (names.length === 0) return undefined;
  if (names.includes(EXPORT_MANIFEST)) {
    const earlier = earlierFormat(out);
    if (format === undefined || earlier === undefined || earlier === format) return undefined;
    return `${out} holds a ${earlier} export, which a ${format} export would replace; give another folder (or remove that one first)`;
  }
  return `${out} is a folder that holds other things (no ${EXPORT_MANIFEST} of an earlier export); give a new or empty folder`;
}

/** Why the folder that is to hold `out` cannot, in one line. */
export function unwritableParent(out: string, error: unknown): ExportError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? `the folder ${dirname(out)} does not exist` : code === 'EACCES' || code === 'EROFS' ? `${dirname(out)} is not writable` : errorMessage(error);
  return new ExportError(`cannot write ${out}: ${why}`);
}

/** A file export being written: text in, then kept whole (`commit`) or dropped (`abandon`). */
export interface OutFile {
  /** Where it goes, as shown to the user: the absolute path, or "standard output". */
  readonly where: string;
  readonly toStdout: boolean;
  write(text: string): Promise<void>;
  commit(): void;
  abandon(): void;
}

function stdoutFile(stream: NodeJS.WritableStream): OutFile {
  return {
    where: 'standard output',
    toStdout: true,
    async write(text) {
      if (text && !stream.write(text)) await once(stream, 'drain');
    },
    commit() {},
    abandon() {},
  };
}

/** A file written beside `path` and renamed over it at the end, so it appears whole or not at all. */
function replacedFile(path: string): OutFile {
  const temp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx');
  } catch (error) {
    throw unwritableParent(path, error);
  }
  const close = () => {
    if (fd === undefined) return;
    const open = fd;
    fd = undefined;
    closeSync(open);
  };
  return {
    where: path,
    toStdout: false,
    async write(text) {
      if (text) writeSync(fd!, text);
    },
    commit() {
      fsyncSync(fd!);
      close();
      // Checked again at the end: what took the place meanwhile is not renamed over either.
      const refusal = fileRefusal(path);
      if (refusal) {
        rmSync(temp, { force: true });
        throw new ExportError(`cannot write ${path}: ${refusal}`);
      }
      renameSync(temp, path);
    },
    abandon() {
      try {
        close();
      } finally {
        rmSync(temp, { force: true });
      }
    },
  };
}

/**
 * Opens the target of a file export, or says in one line why it cannot be
 * written: standard output for its names, else a regular file or a new path.
 */
export function openOutFile(out: string, stdout: NodeJS.WritableStream = process.stdout): OutFile {
  if (isStdout(out)) return stdoutFile(stdout);
  const path = resolve(out);
  const refusal = fileRefusal(path);
  if (refusal) throw new ExportError(`cannot write ${path}: ${refusal}`);
  return replacedFile(path);
}
