/**
 * Reading one file out of a container, in bounded memory. First a look at the
 * path inside the container (what it is, where its links lead, how big it is),
 * then, only for a regular file inside its tree and under the read's limit,
 * the file itself, streamed with a byte cap that aborts the transfer beyond
 * the limit. A directory, a device, a link out of the tree or an oversized file
 * is refused with a message for whoever asked (often an agent), and nothing of
 * it is pulled into memory.
 */
import { posix } from 'node:path';
import { NotFoundError, ReadRefusedError } from '../errors.js';
import { asEngineError } from './docker.js';
import { readOneFile } from './tar.js';
import type Docker from 'dockerode';

/** What a read stops at unless it says otherwise: the artifact limit. */
export const DEFAULT_READ_LIMIT = 10 * 1024 * 1024;

export type PathKind = 'file' | 'directory' | 'character device' | 'block device' | 'fifo' | 'socket' | 'other';

export interface PathInfo {
  /** The path asked for, absolute. */
  path: string;
  /** Where it leads once every link is followed. */
  real: string;
  kind: PathKind;
  size: number;
}

/** Folders whose files are made up by the kernel: their sizes say nothing of what a read returns. */
const VIRTUAL = ['/proc', '/sys', '/dev'];

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(n % 1024 ** 2 === 0 ? 0 : 1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(n % 1024 === 0 ? 0 : 1)} KiB`;
  return `${n} bytes`;
}

function under(path: string, folder: string): boolean {
  return folder === '/' || path === folder || path.startsWith(`${folder}/`);
}

/** The tree a read stays in: /repo for the repository, else the top folder of the path (/tmp, /root, …). */
export function treeOf(path: string, repoDir: string): string {
  if (under(path, repoDir)) return repoDir;
  const top = path.split('/')[1];
  return top ? `/${top}` : '/';
}

/** The bash that describes a path: "missing", or "<kind>|<size>" then the real path on the next line. */
export function inspectScript(path: string): string {
  const p = `'${path.replaceAll("'", `'\\''`)}'`;
  return [
    `p=${p}`,
    'if [ ! -e "$p" ]; then echo missing; exit 0; fi',
    'stat -L -c "%F|%s" -- "$p" && realpath -e -- "$p"',
  ].join('\n');
}

const KINDS: Record<string, PathKind> = {
  'regular file': 'file',
  'regular empty file': 'file',
  directory: 'directory',
  'character special file': 'character device',
  'block special file': 'block device',
  fifo: 'fifo',
  socket: 'socket',
};

/** Reads inspectScript's output; undefined when the path does not exist. */
export function parseInspection(path: string, stdout: string): PathInfo | undefined {
  const [first, ...rest] = stdout.replace(/\n$/, '').split('\n');
  if (!first || first === 'missing') return undefined;
  const bar = first.lastIndexOf('|');
  return {
    path,
    real: rest.join('\n') || path,
    kind: KINDS[first.slice(0, bar)] ?? 'other',
    size: Number(first.slice(bar + 1)),
  };
}

/** Why a path's place forbids reading it (kernel-made files, a link out of its tree), or undefined. */
export function placeRefusal(info: PathInfo, repoDir: string): string | undefined {
  const link = info.real !== info.path ? `is a link to ${info.real}, which ` : '';
  const virtual = VIRTUAL.find((v) => under(info.real, v));
  if (virtual) return `${link}is in ${virtual}, where the kernel makes files up; copy what you need to a regular file first`;
  const tree = treeOf(info.path, repoDir);
  if (info.real !== info.path && !under(info.real, tree)) return `is a link to ${info.real}, outside ${tree}; copy the file there instead of linking to it`;
  return undefined;
}

/** Why a path may not be read as a file under `limit` bytes, or undefined when it may. */
export function readRefusal(info: PathInfo, limit: number, repoDir: string): string | undefined {
  const place = placeRefusal(info, repoDir);
  if (place) return place;
  const link = info.real !== info.path ? `is a link to ${info.real}, which ` : '';
  if (info.kind !== 'file') return `${link}is a ${info.kind}, not a regular file`;
  if (info.size > limit) return `${link}is ${formatBytes(info.size)} (${info.size} bytes), over the ${formatBytes(limit)} limit of this read`;
  return undefined;
}

/** What the reader needs of a sandbox (kept small so this module does not import the Sandbox class). */
export interface FileSource {
  exec(command: string, options: { timeoutMs: number; maxOutputBytes: number }): Promise<{ exitCode: number; stdout: string; stderr: string; timedOut: boolean }>;
  readonly container: Docker.Container;
}

export async function inspectPath(source: FileSource, path: string): Promise<PathInfo> {
  const result = await source.exec(inspectScript(path), { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 });
  if (result.timedOut || result.exitCode !== 0) throw new NotFoundError(`cannot look at ${path} in the container: ${result.stderr.trim().slice(-200) || `exit ${result.exitCode}`}`);
  const info = parseInspection(path, result.stdout);
  if (!info) throw new NotFoundError(`no file ${path} in the container`);
  return info;
}

/** A regular file's content and mode, at most `maxBytes` of it; anything else is a ReadRefusedError. */
export async function readBoundedFile(source: FileSource, path: string, maxBytes: number, repoDir: string): Promise<{ content: Buffer; mode: number }> {
  const info = await inspectPath(source, path);
  const refusal = readRefusal(info, maxBytes, repoDir);
  if (refusal) throw new ReadRefusedError(path, refusal);
  const archive = await source.container.getArchive({ path: info.real }).catch((error: unknown) => {
    throw asEngineError(error, 'files');
  });
  // The file may have changed since it was looked at: the archive is held to the same limits.
  const entry = await readOneFile(archive, maxBytes, posix.basename(info.real));
  if ('refused' in entry) throw new ReadRefusedError(path, entry.refused);
  return entry;
}
