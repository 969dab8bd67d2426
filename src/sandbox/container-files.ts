/**
 * Reading one file out of a container, in bounded memory. One exec looks at
 * the path (what it is, where its links lead, how big it is) and, only for a
 * regular file inside its tree and under the read's limit, sends the file as
 * base64 in the same command, cut one byte past the limit. A directory, a
 * device, a link out of the tree or an oversized file is refused with a
 * message for whoever asked (often an agent), and nothing of it is sent.
 * Measured on Docker and on Podman, that one exec costs half the CPU of a
 * look followed by the engine's archive endpoint, which remains for images
 * without head or base64 and for files the container's user may not read
 * (its stream is held to the same byte cap). Writes stay on the archive
 * endpoint: on Docker it costs what an exec does, on Podman a twentieth.
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { NotFoundError, ReadRefusedError } from '../errors.js';
import { asEngineError } from './engine-errors.js';
import { shellQuote } from './shell-text.js';
import { readOneFile } from './tar.js';

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

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(n % 1024 ** 2 === 0 ? 0 : 1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(n % 1024 === 0 ? 0 : 1)} KiB`;
  return `${n} bytes`;
}

/** Folders whose files are made up by the kernel: their sizes say nothing of what a read returns. */
const VIRTUAL_FOLDERS = ['/proc', '/sys', '/dev'];

function under(path: string, folder: string): boolean {
  return folder === '/' || path === folder || path.startsWith(`${folder}/`);
}

/** The tree a read stays in: /repo for the repository, else the top folder of the path (/tmp, /root, …). */
export function treeOf(path: string, repoDir: string): string {
  if (under(path, repoDir)) return repoDir;
  const top = path.split('/')[1];
  return top ? `/${top}` : '/';
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

/**
 * What a path script did with the file: nothing (it may not be read), sent it
 * (as base64), or could not (the image lacks head or base64, or the
 * container's user may not read it): then the engine is asked for it.
 */
export type SentContent = { sent: false } | { sent: true; base64: string } | { sent: 'unable' };

/** Reads pathScript's output; undefined when the path does not exist. */
export function parseInspection(path: string, stdout: string): (PathInfo & { mode: number; content: SentContent }) | undefined {
  const [first, second = '-', ...rest] = stdout.replace(/\n$/, '').split('\n');
  if (!first || first === 'missing') return undefined;
  const [kind = '', size = '', modeText = ''] = first.split('|');
  const mode = parseInt(modeText, 8);
  const content: SentContent = second.startsWith('=') ? { sent: true, base64: second.slice(1) } : second === '!' ? { sent: 'unable' } : { sent: false };
  return {
    path,
    real: rest.join('\n') || path,
    kind: KINDS[kind] ?? 'other',
    size: Number(size),
    mode: Number.isNaN(mode) ? 0o644 : mode,
    content,
  };
}

/** Why a path's place forbids reading it (kernel-made files, a link out of its tree), or undefined. */
export function placeRefusal(info: PathInfo, repoDir: string): string | undefined {
  const link = info.real !== info.path ? `is a link to ${info.real}, which ` : '';
  const virtual = VIRTUAL_FOLDERS.find((v) => under(info.real, v));
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

/**
 * Bash that describes a path in three lines: "<kind>|<size>|<mode>"; what
 * was sent of the file; the real path once every link is followed (last, as
 * it may hold line breaks). "missing" alone when nothing is there. The second
 * line is "-" when nothing was sent, "!" when the image lacks head or base64,
 * or "=" and the file's base64 (of at most limit + 1 bytes, so a file that
 * grew since it was looked at shows as such). A file is sent only with `read`,
 * and only a regular file of at most `read.limit` bytes that is neither made
 * up by the kernel nor a link out of `read.tree`.
 */
export function pathScript(path: string, read?: { tree: string; limit: number }): string {
  const virtual = VIRTUAL_FOLDERS.map((f) => `${f}|${f}/*`).join('|');
  const send = read
    ? [
        'IFS="|" read -r kind size _ <<<"$info"',
        'case $kind in "regular file"|"regular empty file") ;; *) return 1 ;; esac',
        `[ "$size" -le ${read.limit} ] || return 1`,
        `case $real in ${virtual}) return 1 ;; esac`,
        `tree=${shellQuote(read.tree)}`,
        'if [ "$real" != "$p" ] && [ "$tree" != / ]; then case $real in "$tree"|"$tree"/*) ;; *) return 1 ;; esac; fi',
        "command -v head >/dev/null && command -v base64 >/dev/null || { echo '!'; return 0; }",
        `printf =; head -c ${read.limit + 1} -- "$real" | base64 -w0; sent="\${PIPESTATUS[*]}"; echo`,
      ]
    : ['return 1'];
  return [
    `p=${shellQuote(path)}`,
    'if [ ! -e "$p" ]; then echo missing; exit 0; fi',
    'info=$(stat -L -c "%F|%s|%a" -- "$p") && real=$(realpath -e -- "$p") || exit 1',
    'send() {',
    ...send.map((line) => `  ${line}`),
    '}',
    `printf '%s\\n' "$info"`,
    'send || echo -',
    `printf '%s\\n' "$real"`,
    // A file that could not be read (its permissions, say) was sent in part: the exit says so.
    `[ "\${sent:-0 0}" = "0 0" ] || exit ${READ_FAILED}`,
  ].join('\n');
}

/** The exit code of a path script whose read of the file failed part way. */
const READ_FAILED = 88;

/** The most stdout a read of up to `limit` bytes prints: its base64 and the two lines before it. */
function readOutputBytes(limit: number): number {
  return Math.ceil((limit + 1) / 3) * 4 + 64 * 1024;
}

/** What the reader needs of a sandbox (kept small so this module does not import the Sandbox class). */
export interface FileSource {
  exec(command: string, options: { timeoutMs: number; maxOutputBytes: number }): Promise<{ exitCode: number; stdout: string; stderr: string; timedOut: boolean }>;
  /** The engine's own copy of the file as a tar stream: for files the container's tools cannot send. */
  readArchive(path: string): Promise<NodeJS.ReadableStream>;
}

/** The inspection a path script's exec gave, or the error that says why there is none. */
function inspectionOf(path: string, result: { exitCode: number; stdout: string; stderr: string; timedOut: boolean }) {
  const failedRead = result.exitCode === READ_FAILED;
  if (result.timedOut || (result.exitCode !== 0 && !failedRead)) {
    throw new NotFoundError(`cannot look at ${path} in the container: ${result.stderr.trim().slice(-200) || `exit ${result.exitCode}`}`);
  }
  const info = parseInspection(path, result.stdout);
  if (!info) throw new NotFoundError(`no file ${path} in the container`);
  // What the container's user could not read is asked of the engine.
  if (failedRead) info.content = { sent: 'unable' };
  return info;
}

async function runPathScript(source: FileSource, path: string, read?: { tree: string; limit: number }) {
  return inspectionOf(path, await source.exec(pathScript(path, read), { timeoutMs: 30_000, maxOutputBytes: read ? readOutputBytes(read.limit) : 64 * 1024 }));
}

export async function inspectPath(source: FileSource, path: string): Promise<PathInfo> {
  const { content: _content, mode: _mode, ...info } = await runPathScript(source, path);
  return info;
}

/**
 * A regular file's content and mode, at most `maxBytes` of it; anything else
 * is a ReadRefusedError. One exec looks at the path and, when it may be read,
 * sends it; the engine's archive endpoint is used only where the image cannot.
 */
export async function readBoundedFile(source: FileSource, path: string, maxBytes: number, repoDir: string): Promise<{ content: Buffer; mode: number }> {
  return contentOf(source, path, await runPathScript(source, path, { tree: treeOf(path, repoDir), limit: maxBytes }), maxBytes, repoDir);
}

/**
 * Several files read as readBoundedFile reads each, in one exec (every exec
 * costs the container a process start): each file's content and mode, or the
 * error its own read would have thrown, in the order of `paths`.
 */
export async function readBoundedFiles(source: FileSource, paths: string[], maxBytes: number, repoDir: string): Promise<({ content: Buffer; mode: number } | { error: Error })[]> {
  // Each path's part of the output ends in a line with this marker and its script's exit code; no name a link leads to can forge it.
  const marker = `bugbench-read-end-${randomBytes(8).toString('hex')}`;
  const script = paths.map((path) => `( ${pathScript(path, { tree: treeOf(path, repoDir), limit: maxBytes })}\n); echo "${marker} $?"`).join('\n');
  const result = await source.exec(script, { timeoutMs: 30_000, maxOutputBytes: paths.length * readOutputBytes(maxBytes) });
  // Cut the output into the paths' parts first, in order; a part the output never reached ends with no exit code.
  let rest = result.stdout;
  const parts = paths.map(() => {
    const end = new RegExp(`(?:^|\n)${marker} (\\d+)\n`).exec(rest);
    const stdout = end ? rest.slice(0, end.index + (end[0].startsWith('\n') ? 1 : 0)) : rest;
    rest = end ? rest.slice(end.index + end[0].length) : '';
    return { stdout, exitCode: end ? Number(end[1]) : result.timedOut ? 137 : result.exitCode || 1 };
  });
  return Promise.all(
    paths.map(async (path, i) => {
      try {
        return await contentOf(source, path, inspectionOf(path, { ...result, ...parts[i]! }), maxBytes, repoDir);
      } catch (error) {
        return { error: error instanceof Error ? error : new Error(String(error)) };
      }
    }),
  );
}

/** The content of a looked-at path: what its script sent, else the engine's copy; refused when it may not be read. */
async function contentOf(source: FileSource, path: string, info: ReturnType<typeof inspectionOf>, maxBytes: number, repoDir: string): Promise<{ content: Buffer; mode: number }> {
  const refusal = readRefusal(info, maxBytes, repoDir);
  if (refusal) throw new ReadRefusedError(path, refusal);
  // The file may have changed since it was looked at: what arrives is held to the same limits.
  if (info.content.sent === true) {
    const content = Buffer.from(info.content.base64, 'base64');
    if (content.length > maxBytes) throw new ReadRefusedError(path, `grew past the ${formatBytes(maxBytes)} limit of this read while it was read`);
    return { content, mode: info.mode };
  }
  const archive = await source.readArchive(info.real).catch((error: unknown) => {
    throw asEngineError(error, 'files');
  });
  const entry = await readOneFile(archive, maxBytes, posix.basename(info.real));
  if ('refused' in entry) throw new ReadRefusedError(path, entry.refused);
  // The archive's mode may carry the file type's bits too; a mode here is the permissions.
  return { content: entry.content, mode: entry.mode & 0o7777 };
}
