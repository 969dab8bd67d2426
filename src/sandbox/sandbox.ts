/**
 * A sandbox: one repository in an isolated container, and everything bugbench
 * does to it — run commands with a time limit and an output cap, move files in
 * and out, apply and take diffs, reset the work tree. This is the port's side
 * the rest of bugbench sees; an engine (docker-api/, …) provides the four
 * primitives (exec, writeFiles, readArchive, remove) and RepoSandbox builds
 * the rest on them, the same for every engine.
 */
import { randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import { NotFoundError, PatchRejectedError, SandboxError } from '../errors.js';
import { DEFAULT_READ_LIMIT, inspectPath, readBoundedFile, readBoundedFiles, type PathInfo } from './container-files.js';
import { isNotFound } from './engine-errors.js';
import { shellQuote } from './shell-text.js';

export { shellQuote } from './shell-text.js';

export const REPO_DIR = '/repo';
export const DEFAULT_MEMORY_BYTES = 4 * 1024 ** 3;
export const DEFAULT_PIDS_LIMIT = 512;
export const DEFAULT_OUTPUT_CAP = 1024 * 1024;
export const DEFAULT_EXEC_TIMEOUT_MS = 90_000;

/**
 * The image's own world, which every command in a sandbox runs in: where the
 * repository is, as whom, and the environment the image's login shell gives
 * (SWE-bench's images put their interpreter on PATH only through ~/.bashrc).
 * bugbench's own images are the repository at /repo, as root, as they are.
 */
export interface ImageWorld {
  /** The repository's work tree. */
  root: string;
  /** The user commands run as ('' for the image's own User). */
  user: string;
  /** That user's numeric ids, which files bugbench writes are owned by. */
  uid: number;
  gid: number;
  /** What the image's login shell adds to or changes in the environment of a plain `bash -c`. */
  env: Record<string, string>;
}

/** The world of an image bugbench built. */
export const BUILT_WORLD: ImageWorld = { root: REPO_DIR, user: '', uid: 0, gid: 0, env: {} };

export interface SandboxOptions {
  image: string;
  runId: string;
  /** Where the repository is and how commands run (default: an image bugbench built). */
  world?: ImageWorld;
  memoryBytes?: number;
  pidsLimit?: number;
  /** CPUs the container may use, e.g. 1.5. Default: no limit beyond the host's. */
  cpus?: number;
  env?: Record<string, string>;
  extraLabels?: Record<string, string>;
  /** Named volumes to mount: volume name → path in the container. */
  volumes?: Record<string, string>;
  /** Files in place before the first command (a container engine writes them before the container starts, with its own). */
  files?: FileToWrite[];
}

export type OutputStream = 'stdout' | 'stderr';

export interface ExecOptions {
  timeoutMs?: number;
  /** Cap per stream (default 1 MiB); `maxStderrBytes` sets stderr's apart. */
  maxOutputBytes?: number;
  maxStderrBytes?: number;
  env?: Record<string, string>;
  workdir?: string;
  /** Called with each piece of output as it arrives (decoded, whole characters). */
  onOutput?: (stream: OutputStream, text: string) => void;
  /** Stops the command (and everything it started) when aborted. */
  signal?: AbortSignal;
}

export interface ExecResult {
  command: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The caller's signal stopped it (every process it started was killed). */
  cancelled: boolean;
  truncated: boolean;
  durationMs: number;
}

export interface ReadOptions {
  /** The most bytes the read returns; a bigger file is refused (default 10 MiB). */
  maxBytes?: number;
}

export interface FileToWrite {
  /** Absolute, or relative to the repository's root. */
  path: string;
  content: string | Buffer;
  mode?: number;
}

/** What bugbench asks of a sandbox, whatever engine made it. */
export interface Sandbox {
  readonly id: string;
  readonly image: string;
  readonly runId: string;
  /** The image's world: the repository's root, the user, the environment. */
  readonly world: ImageWorld;
  /** The repository's work tree (world.root). */
  readonly root: string;
  /** An absolute path in the container: `path` itself, or relative to the root. */
  absolutePath(path: string): string;
  /**
   * Runs `command` with bash in the repository's root. Past the time limit every process it
   * started is killed and the result says timedOut.
   */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Runs a command bugbench itself needs; a non-zero exit is a SandboxError. */
  run(command: string, options?: ExecOptions): Promise<ExecResult>;
  writeFiles(files: FileToWrite[]): Promise<void>;
  writeFile(path: string, content: string | Buffer, mode?: number): Promise<void>;
  /** What a path is in the container (kind, size, where its links lead); NotFoundError if nothing is there. */
  inspect(path: string): Promise<PathInfo>;
  /** A regular file's content, at most `maxBytes` (default 10 MiB) of it; see readFileEntry. */
  readFile(path: string, options?: ReadOptions): Promise<Buffer>;
  /**
   * A file's content and mode (so an edit can keep an executable executable).
   * Only a regular file inside its tree (/repo, or the top folder of the path)
   * and no bigger than `maxBytes` is read; anything else is a ReadRefusedError
   * that says why, and nothing of it is transferred.
   */
  readFileEntry(path: string, options?: ReadOptions): Promise<{ content: Buffer; mode: number }>;
  /** Several files read as readFile reads each, in one exec: each one's content, or the error its own read would have thrown. */
  readFiles(paths: string[], options?: ReadOptions): Promise<(Buffer | Error)[]>;
  readText(path: string, options?: ReadOptions): Promise<string>;
  /** Applies a diff to the repository with `git apply`; a hunk that does not apply is a PatchRejectedError. */
  applyDiff(diff: string, options?: { reverse?: boolean }): Promise<void>;
  /**
   * The work tree's changes against HEAD (new, changed and deleted files),
   * limited to `paths` if given; `reverse` gives the diff that undoes them.
   */
  diff(paths?: string[], options?: { reverse?: boolean }): Promise<string>;
  /** Puts the repository back to `commit` exactly: tracked files restored, untracked files removed. */
  reset(commit?: string): Promise<void>;
  /** CPU seconds the container's processes have used since it started, as the engine counts them; undefined when it does not tell. */
  cpuSeconds(): Promise<number | undefined>;
  headCommit(): Promise<string>;
  remove(): Promise<void>;
}

/** The part of a sandbox every engine shares: all of it but the engine's four primitives. */
export abstract class RepoSandbox implements Sandbox {
  abstract readonly id: string;
  abstract readonly image: string;
  abstract readonly runId: string;
  abstract readonly world: ImageWorld;
  abstract exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  abstract writeFiles(files: FileToWrite[]): Promise<void>;
  /** The engine's own copy of a file, as a tar stream (for files the container cannot send itself). */
  abstract readArchive(path: string): Promise<NodeJS.ReadableStream>;
  abstract remove(): Promise<void>;
  abstract cpuSeconds(): Promise<number | undefined>;

  get root(): string {
    return this.world.root;
  }

  absolutePath(path: string): string {
    return absolutePath(path, this.root);
  }

  async run(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const result = await this.exec(command, options);
    if (result.exitCode !== 0 || result.timedOut) {
      throw new SandboxError(
        `\`${command}\` failed in ${this.image} (exit ${result.exitCode}${result.timedOut ? ', timed out' : ''}): ${(result.stderr || result.stdout).trim().slice(-500)}`,
      );
    }
    return result;
  }

  async writeFile(path: string, content: string | Buffer, mode?: number): Promise<void> {
    await this.writeFiles([{ path, content, mode }]);
  }

  inspect(path: string): Promise<PathInfo> {
    return inspectPath(this, this.absolutePath(path));
  }

  async readFile(path: string, options: ReadOptions = {}): Promise<Buffer> {
    return (await this.readFileEntry(path, options)).content;
  }

  async readFileEntry(path: string, options: ReadOptions = {}): Promise<{ content: Buffer; mode: number }> {
    const absolute = this.absolutePath(path);
    try {
      return await readBoundedFile(this, absolute, options.maxBytes ?? DEFAULT_READ_LIMIT, this.root);
    } catch (error) {
      throw this.readError(absolute, error);
    }
  }

  async readFiles(paths: string[], options: ReadOptions = {}): Promise<(Buffer | Error)[]> {
    const absolute = paths.map((p) => this.absolutePath(p));
    const read = await readBoundedFiles(this, absolute, options.maxBytes ?? DEFAULT_READ_LIMIT, this.root);
    return read.map((r, i) => ('error' in r ? this.readError(absolute[i]!, r.error) : r.content));
  }

  private readError(absolute: string, error: unknown): Error {
    if (isNotFound(error)) return new NotFoundError(`no file ${absolute} in the container`);
    return error instanceof Error ? error : new Error(String(error));
  }

  async readText(path: string, options: ReadOptions = {}): Promise<string> {
    return (await this.readFile(path, options)).toString('utf8');
  }

  async applyDiff(diff: string, options: { reverse?: boolean } = {}): Promise<void> {
    if (diff.trim() === '') return;
    const file = `/tmp/.bugbench-patch-${randomUUID()}.diff`;
    await this.writeFile(file, diff.endsWith('\n') ? diff : `${diff}\n`);
    const flags = options.reverse ? '-R ' : '';
    const result = await this.exec(`git apply --whitespace=nowarn ${flags}${file}; rc=$?; rm -f ${file}; exit $rc`, {
      timeoutMs: 60_000,
    });
    if (result.exitCode !== 0) {
      throw new PatchRejectedError(rejectedFiles(result.stderr), firstLine(result.stderr) || `exit ${result.exitCode}`);
    }
  }

  async diff(paths: string[] = [], options: { reverse?: boolean } = {}): Promise<string> {
    const spec = paths.length > 0 ? `-- ${paths.map(shellQuote).join(' ')}` : '';
    // The reverse compares the staged tree with HEAD (not `diff -R`, which writes its paths b/… a/…).
    const compare = options.reverse ? 'git diff --binary "$(git write-tree)" HEAD' : 'git diff --cached --binary HEAD';
    const result = await this.run(
      `git add -A ${spec} && ${compare} ${spec}; rc=$?; git reset -q; exit $rc`,
      { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 * 1024 },
    );
    return result.stdout;
  }

  async reset(commit = 'HEAD'): Promise<void> {
    await this.run(`git reset -q --hard ${shellQuote(commit)} && git clean -q -fd`, { timeoutMs: 60_000 });
  }

  async headCommit(): Promise<string> {
    return (await this.run('git rev-parse HEAD')).stdout.trim();
  }
}

export function absolutePath(path: string, root: string = REPO_DIR): string {
  return posix.isAbsolute(path) ? posix.normalize(path) : posix.join(root, path);
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/** File names from git apply's complaints ("error: patch failed: a.py:3", "error: a.py: does not exist in index"). */
export function rejectedFiles(stderr: string): string[] {
  const files = new Set<string>();
  for (const line of stderr.split('\n')) {
    const failed = /^error: patch failed: (.+):\d+$/.exec(line);
    const other = /^error: (.+?): (?:patch does not apply|does not exist in index|already exists in working directory|No such file or directory)$/.exec(line);
    const name = failed?.[1] ?? other?.[1];
    if (name) files.add(name);
  }
  return [...files];
}
