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
import { posix } from 'node:path';
import { ImageNotFoundError, SandboxError } from '../../errors.js';
import { delay } from '../../delay.js';
import { CappedOutput } from '../capped-output.js';
import { metering, recordContainerCpu } from '../cpu-meter.js';
import { asEngineError, engineCall, isEngineFailure, isNotFound } from '../engine-errors.js';
import type { EngineKind } from '../engine-kind.js';
import { LABEL_RUN, ownerLabels } from '../owner.js';
import {
  BUILT_WORLD,
  DEFAULT_EXEC_TIMEOUT_MS,
  DEFAULT_MEMORY_BYTES,
  DEFAULT_OUTPUT_CAP,
  DEFAULT_PIDS_LIMIT,
  RepoSandbox,
  type ImageWorld,
  type ExecOptions,
  type ExecResult,
  type FileToWrite,
  type OutputStream,
  type SandboxOptions,
} from '../sandbox.js';
import { packFiles } from '../tar.js';
import { containerSpec, execCommand, HOSTS_FILE } from './container-options.js';

const ROOT = { uid: 0, gid: 0 };

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
    readonly world: ImageWorld,
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
    const world = options.world ?? BUILT_WORLD;
    const spec = containerSpec(kind, {
      image: options.image,
      command: ['sleep', 'infinity'],
      workdir: world.root,
      user: world.user,
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
    const sandbox = new DockerSandbox(docker, container, options.image, options.runId, world, kind);
    try {
      // Written into the container before it starts, in one archive: its hosts file, when the engine leaves it empty, and the caller's files.
      const hosts = spec.NetworkDisabled ? [{ path: '/etc/hosts', content: HOSTS_FILE, owner: ROOT }] : [];
      if (hosts.length > 0 || options.files?.length) await sandbox.putFiles([...hosts, ...(options.files ?? [])]);
      await container.start();
      // bugbench's own folders belong to the image's user, who writes the logs and the lock there.
      if (world.uid !== 0) await sandbox.asRoot(`mkdir -p ${BUGBENCH_DIR} && chown ${world.uid}:${world.gid} ${BUGBENCH_DIR} ${Object.values(options.volumes ?? {}).join(' ')}`);
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
    const env = { ...this.world.env, ...GIT_TRUSTS_THE_REPOSITORY, ...options.env, [EXEC_MARKER]: marker };
    const { exec, stream } = await engineCall('exec', async () => {
      const made = await this.container.exec({
        Cmd: execCommand(this.kind, command),
        Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
        WorkingDir: options.workdir ?? this.world.root,
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
      await Promise.race([ended, delay(2000)]);
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
          const settled = await Promise.race([ended.then(() => true), delay(200).then(() => false)]);
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
    await drained(exec);
  }

  writeFiles(files: FileToWrite[]): Promise<void> {
    return this.putFiles(files);
  }

  /** Writes `files` in one archive, as the image's user unless a file names its owner; the container need not be running. */
  private async putFiles(files: (FileToWrite & { owner?: { uid: number; gid: number } })[]): Promise<void> {
    const { uid, gid } = this.world;
    const paths = files.map((f) => this.absolutePath(f.path));
    // Folders a write makes belong to the image's user too (the engine would make them root's).
    const folders = uid === 0 ? [] : ownedFolders(paths.filter((_, i) => !files[i]!.owner), this.root);
    const archive = await packFiles([
      ...folders.map((folder) => ({ name: folder.slice(1), content: Buffer.alloc(0), directory: true, uid, gid })),
      ...files.map((f, i) => ({
        name: paths[i]!.slice(1),
        content: typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content,
        mode: f.mode,
        ...(f.owner ?? { uid, gid }),
      })),
    ]);
    await engineCall('files', () => this.container.putArchive(archive, { path: '/' }));
  }

  /** Runs a short command as root, whoever the image's user is (only for bugbench's own folders). */
  private async asRoot(command: string): Promise<void> {
    const exec = await this.container.exec({ Cmd: ['bash', '-c', command], User: '0', AttachStdout: true, AttachStderr: true });
    await drained(exec);
    const { ExitCode } = await exec.inspect();
    if (ExitCode !== 0) throw new SandboxError(`\`${command}\` failed as root in ${this.image} (exit ${ExitCode})`);
  }

  readArchive(path: string): Promise<NodeJS.ReadableStream> {
    return this.container.getArchive({ path });
  }

  async cpuSeconds(): Promise<number | undefined> {
    // one-shot: the engine answers with its count now instead of sampling twice.
    const stats = await this.container.stats({ stream: false, 'one-shot': true } as { stream: false });
    const nanoseconds = stats.cpu_stats?.cpu_usage?.total_usage;
    return typeof nanoseconds === 'number' && nanoseconds > 0 ? nanoseconds / 1e9 : undefined;
  }

  async remove(): Promise<void> {
    if (metering()) recordContainerCpu(await this.cpuSeconds().catch(() => undefined), this.runId);
    try {
      await this.container.remove({ force: true, v: true });
    } catch (error) {
      if (!isNotFound(error) && !isRemovalInProgress(error)) throw asEngineError(error, 'remove');
    }
  }
}

/** bugbench's folder in every container: the artifact, the logs, the parser's output. */
const BUGBENCH_DIR = '/bugbench';

/** git refuses a work tree another user owns ("dubious ownership"); the sandbox's repository is the one to trust. */
const GIT_TRUSTS_THE_REPOSITORY = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };

/** Where the image's user may make folders: below the repository's root, bugbench's own folder, the temporary ones. */
const USER_TREES = [BUGBENCH_DIR, '/tmp', '/var/tmp'];

/** The folders above `paths` that a write may make in the user's trees (the folder of a tree itself is left as it is). */
export function ownedFolders(paths: string[], root: string): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    for (const top of [root, ...USER_TREES]) {
      if (!path.startsWith(`${top}/`)) continue;
      let folder = posix.dirname(path);
      while (folder.length > top.length) {
        folders.add(folder);
        folder = posix.dirname(folder);
      }
    }
  }
  return [...folders].sort();
}

/** Starts a short exec of bugbench's own and waits for its output to end, reading none of it. */
async function drained(exec: Docker.Exec): Promise<void> {
  const stream = await exec.start({ hijack: true, stdin: false });
  stream.resume();
  await new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
}

function isRemovalInProgress(error: unknown): boolean {
  return (error as { statusCode?: number })?.statusCode === 409;
}
