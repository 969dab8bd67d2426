/**
 * A sandbox on an engine that speaks the Docker API: a container holding one
 * repository at /repo. What differs between Docker and Podman is in
 * container-options.ts, and a failure of the engine's own is an EngineError.
 * The git and file helpers every engine shares are RepoSandbox's.
 */
import { randomUUID } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { ImageNotFoundError } from '../../errors.js';
import { CappedOutput } from '../capped-output.js';
import { asEngineError, engineCall, isEngineFailure, isNotFound } from '../engine-errors.js';
import type { EngineKind } from '../engine-kind.js';
import { LABEL_RUN, ownerLabels } from '../owner.js';
import {
  absolutePath,
  DEFAULT_EXEC_TIMEOUT_MS,
  DEFAULT_MEMORY_BYTES,
  DEFAULT_OUTPUT_CAP,
  DEFAULT_PIDS_LIMIT,
  REPO_DIR,
  RepoSandbox,
  type ExecOptions,
  type ExecResult,
  type FileToWrite,
  type OutputStream,
  type SandboxOptions,
} from '../sandbox.js';
import { packFiles } from '../tar.js';
import { containerSpec, execCommand } from './container-options.js';

/** The environment variable that marks every process of one exec. */
const EXEC_MARKER = 'BUGBENCH_EXEC';

/** How often to ask whether a long command's main process ended while its output pipe stays open. */
const LINGER_POLL_MS = 500;

export class DockerSandbox extends RepoSandbox {
  private constructor(
    readonly docker: Docker,
    readonly container: Docker.Container,
    readonly image: string,
    readonly runId: string,
    private readonly kind: EngineKind,
  ) {
    super();
  }

  get id(): string {
    return this.container.id;
  }

  /**
   * Creates and starts the container. A failure of the engine's own (it could
   * not create or start it) is an EngineError: it says nothing of the image or
   * of the work.
   */
  static async create(docker: Docker, kind: EngineKind, options: SandboxOptions): Promise<DockerSandbox> {
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
    const sandbox = new DockerSandbox(docker, container, options.image, options.runId, kind);
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

  readArchive(path: string): Promise<NodeJS.ReadableStream> {
    return this.container.getArchive({ path });
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
