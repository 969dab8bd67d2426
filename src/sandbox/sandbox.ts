/**
 * A container holding one repository at /repo, and everything bugbench does to
 * it: run commands with a time limit and an output cap, move files in and out,
 * apply and take diffs, reset the work tree. Talks to the engine through
 * dockerode only; what differs between Docker and Podman is in
 * container-options.ts, and a failure of the engine's own is an EngineError.
 */
import { randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { ImageNotFoundError, NotFoundError, PatchRejectedError, SandboxError } from '../errors.js';
import { CappedOutput } from './capped-output.js';
import { containerSpec, execCommand } from './container-options.js';
import { asEngineError, dockerClient, engineCall, isEngineFailure, isNotFound } from './docker.js';
import { engineKind, type EngineKind } from './engine-kind.js';
import { LABEL_RUN, ownerLabels } from './owner.js';
import { DEFAULT_READ_LIMIT, inspectPath, readBoundedFile, type PathInfo } from './container-files.js';
import { shellQuote } from './shell-text.js';
import { packFiles } from './tar.js';

export { shellQuote } from './shell-text.js';

export const REPO_DIR = '/repo';
export const DEFAULT_MEMORY_BYTES = 4 * 1024 ** 3;
export const DEFAULT_PIDS_LIMIT = 512;
export const DEFAULT_OUTPUT_CAP = 1024 * 1024;
export const DEFAULT_EXEC_TIMEOUT_MS = 90_000;

export interface SandboxOptions {
  image: string;
  runId: string;
  docker?: Docker;
  memoryBytes?: number;
  pidsLimit?: number;
  /** CPUs the container may use, e.g. 1.5. Default: no limit beyond the host's. */
  cpus?: number;
  env?: Record<string, string>;
  extraLabels?: Record<string, string>;
  /** Named volumes to mount: volume name → path in the container. */
  volumes?: Record<string, string>;
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
  /** Absolute, or relative to /repo. */
  path: string;
  content: string | Buffer;
  mode?: number;
}

/** The environment variable that marks every process of one exec. */
const EXEC_MARKER = 'BUGBENCH_EXEC';

/** How often to ask whether a long command's main process ended while its output pipe stays open. */
const LINGER_POLL_MS = 500;

export class Sandbox {
  private constructor(
    readonly docker: Docker,
    readonly container: Docker.Container,
    readonly image: string,
    readonly runId: string,
    private readonly kind: EngineKind,
  ) {}

  get id(): string {
    return this.container.id;
  }

  /**
   * Creates and starts the container. A failure of the engine's own (it could
   * not create or start it) is an EngineError: it says nothing of the image or
   * of the work.
   */
  static async create(options: SandboxOptions): Promise<Sandbox> {
    const docker = options.docker ?? dockerClient();
    const kind = await engineKind(docker);
    const spec = containerSpec(kind, {
      image: options.image,
      command: ['sleep', 'infinity'],
      workdir: REPO_DIR,
      env: { PYTHONDONTWRITEBYTECODE: '1', ...options.env },
      labels: { [LABEL_RUN]: options.runId, ...ownerLabels(), ...options.extraLabels },
      memoryBytes: options.memoryBytes ?? DEFAULT_MEMORY_BYTES,
      pidsLimit: options.pidsLimit ?? DEFAULT_PIDS_LIMIT,
      cpus: options.cpus,
      volumes: options.volumes,
    });
    let container: Docker.Container;
    try {
      container = await docker.createContainer(spec);
    } catch (error) {
      if (isNotFound(error)) throw new ImageNotFoundError(options.image);
      throw asEngineError(error, 'create');
    }
    const sandbox = new Sandbox(docker, container, options.image, options.runId, kind);
    try {
      await container.start();
    } catch (error) {
      await sandbox.remove().catch(() => undefined);
      throw asEngineError(error, 'start');
    }
    return sandbox;
  }

  /**
   * Runs `command` with bash in /repo. Past the time limit every process it
   * started is killed and the result says timedOut.
   */
  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    const cap = options.maxOutputBytes ?? DEFAULT_OUTPUT_CAP;
    // Every process the command starts inherits this marker, so a timeout can find and kill all of them,
    // even those that left the process group or were orphaned.
    const marker = randomUUID();
    const env = { ...options.env, [EXEC_MARKER]: marker };
    const { exec, stream } = await engineCall('exec', async () => {
      const made = await this.container.exec({
        Cmd: execCommand(this.kind, command),
        Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
        WorkingDir: options.workdir ?? REPO_DIR,
        AttachStdout: true,
        AttachStderr: true,
      });
      return { exec: made, stream: await made.start({ hijack: true, stdin: false }) };
    });
    const outputs = { stdout: new CappedOutput(cap), stderr: new CappedOutput(options.maxStderrBytes ?? cap) };
    const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
    const sink = (name: OutputStream) => {
      const pass = new PassThrough();
      pass.on('data', (chunk: Buffer) => {
        outputs[name].push(chunk);
        if (options.onOutput) {
          const text = decoders[name].write(chunk);
          if (text) options.onOutput(name, text);
        }
      });
      return pass;
    };
    this.docker.modem.demuxStream(stream, sink('stdout'), sink('stderr'));

    const ended = new Promise<'ended'>((resolve) => {
      stream.on('end', () => resolve('ended'));
      stream.on('close', () => resolve('ended'));
      stream.on('error', () => resolve('ended'));
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const lingering = this.watchForLingering(exec, ended);
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<'cancelled'>((resolve) => {
      onAbort = () => resolve('cancelled');
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const outcome = await Promise.race([ended, timedOut, lingering.promise, aborted]);
    clearTimeout(timer);
    lingering.stop();
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    if (outcome !== 'ended') {
      await this.killMarked(marker);
      await Promise.race([ended, sleep(2000)]);
      stream.destroy();
    }
    const info = await exec.inspect().catch((error: unknown) => {
      // An engine that cannot say how the command ended leaves no result to judge.
      if (isEngineFailure(error)) throw asEngineError(error, 'exec');
      return undefined;
    });
    return {
      command,
      exitCode: info?.ExitCode ?? -1,
      stdout: outputs.stdout.text(),
      stderr: outputs.stderr.text(),
      timedOut: outcome === 'timeout',
      cancelled: outcome === 'cancelled',
      truncated: outputs.stdout.truncated || outputs.stderr.truncated,
      durationMs: Math.round(performance.now() - started),
    };
  }

  /**
   * A command whose main process ended but left children holding its output
   * pipe would otherwise wait for the time limit. After a second of running,
   * poll the exec; once it is done, give the pipe a moment, then stop waiting.
   */
  private watchForLingering(exec: Docker.Exec, ended: Promise<unknown>) {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const promise = new Promise<'lingering'>((resolve) => {
      const poll = async () => {
        if (stopped) return;
        const info = await exec.inspect().catch(() => undefined);
        if (stopped) return;
        if (info && !info.Running) {
          const settled = await Promise.race([ended.then(() => true), sleep(200).then(() => false)]);
          if (!settled && !stopped) resolve('lingering');
          return;
        }
        timer = setTimeout(poll, LINGER_POLL_MS);
      };
      timer = setTimeout(poll, 1000);
    });
    return {
      promise,
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  private async killMarked(marker: string): Promise<void> {
    const pattern = `^${EXEC_MARKER}=${marker}$`;
    const exec = await this.container.exec({
      Cmd: ['bash', '-c', `for p in /proc/[0-9]*; do grep -qsz '${pattern}' "$p/environ" && kill -KILL "\${p#/proc/}" 2>/dev/null; done; true`],
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    stream.resume();
    await new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
  }

  /** Runs a command bugbench itself needs; a non-zero exit is a SandboxError. */
  async run(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const result = await this.exec(command, options);
    if (result.exitCode !== 0 || result.timedOut) {
      throw new SandboxError(
        `\`${command}\` failed in ${this.image} (exit ${result.exitCode}${result.timedOut ? ', timed out' : ''}): ${(result.stderr || result.stdout).trim().slice(-500)}`,
      );
    }
    return result;
  }

  async writeFiles(files: FileToWrite[]): Promise<void> {
    const archive = await packFiles(
      files.map((f) => ({
        name: absolutePath(f.path).slice(1),
        content: typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content,
        mode: f.mode,
      })),
    );
    await engineCall('files', () => this.container.putArchive(archive, { path: '/' }));
  }

  async writeFile(path: string, content: string | Buffer, mode?: number): Promise<void> {
    await this.writeFiles([{ path, content, mode }]);
  }

  /** What a path is in the container (kind, size, where its links lead); NotFoundError if nothing is there. */
  inspect(path: string): Promise<PathInfo> {
    return inspectPath(this, absolutePath(path));
  }

  /** A regular file's content, at most `maxBytes` (default 10 MiB) of it; see readFileEntry. */
  async readFile(path: string, options: ReadOptions = {}): Promise<Buffer> {
    return (await this.readFileEntry(path, options)).content;
  }

  /**
   * A file's content and mode (so an edit can keep an executable executable).
   * Only a regular file inside its tree (/repo, or the top folder of the path)
   * and no bigger than `maxBytes` is read; anything else is a ReadRefusedError
   * that says why, and nothing of it is transferred.
   */
  async readFileEntry(path: string, options: ReadOptions = {}): Promise<{ content: Buffer; mode: number }> {
    const absolute = absolutePath(path);
    try {
      return await readBoundedFile(this, absolute, options.maxBytes ?? DEFAULT_READ_LIMIT, REPO_DIR);
    } catch (error) {
      if (isNotFound(error)) throw new NotFoundError(`no file ${absolute} in the container`);
      throw error;
    }
  }

  async readText(path: string, options: ReadOptions = {}): Promise<string> {
    return (await this.readFile(path, options)).toString('utf8');
  }

  /** Applies a diff to /repo with `git apply`; a hunk that does not apply is a PatchRejectedError. */
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

  /**
   * The work tree's changes against HEAD (new, changed and deleted files),
   * limited to `paths` if given; `reverse` gives the diff that undoes them.
   */
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

  /** Puts /repo back to `commit` exactly: tracked files restored, untracked files removed. */
  async reset(commit = 'HEAD'): Promise<void> {
    await this.run(`git reset -q --hard ${shellQuote(commit)} && git clean -q -fd`, { timeoutMs: 60_000 });
  }

  async headCommit(): Promise<string> {
    return (await this.run('git rev-parse HEAD')).stdout.trim();
  }

  async remove(): Promise<void> {
    try {
      await this.container.remove({ force: true, v: true });
    } catch (error) {
      if (!isNotFound(error) && !isRemovalInProgress(error)) throw asEngineError(error, 'remove');
    }
  }
}

function isRemovalInProgress(error: unknown): boolean {
  return (error as { statusCode?: number })?.statusCode === 409;
}

export function absolutePath(path: string): string {
  return posix.isAbsolute(path) ? posix.normalize(path) : posix.join(REPO_DIR, path);
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
