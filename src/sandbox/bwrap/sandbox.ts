/**
 * A sandbox with no engine: `unshare` gives this user a user and mount
 * namespace where it mounts an overlay (the image's unpacked lower layer, a
 * private writable upper one), and bwrap runs a process tree over it in new
 * user, PID, network (only `lo`), IPC and UTS namespaces, as the image's user.
 * Commands join those namespaces with nsenter; files travel through commands
 * inside (never host paths, which a link in the sandbox could lead out of).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import tar from 'tar-stream';
import { SandboxError } from '../../errors.js';
import { delay } from '../../delay.js';
import { processStartTime } from '../../process-identity.js';
import { CappedOutput } from '../capped-output.js';
import { metering, recordContainerCpu } from '../cpu-meter.js';
import { LABEL_RUN, ownerLabels } from '../owner.js';
import { BUILT_WORLD, DEFAULT_EXEC_TIMEOUT_MS, DEFAULT_OUTPUT_CAP, RepoSandbox, shellQuote, type ExecOptions, type ExecResult, type FileToWrite, type ImageWorld, type OutputStream, type SandboxOptions } from '../sandbox.js';
import { packFiles } from '../tar.js';
import { ensurePrivateRoot, removeSandboxState, sandboxDir, writeRecord, type SandboxRecord } from './state.js';
import { hostTool } from './tools.js';

/** The environment variable that marks every process of one exec (a time limit kills all that carry it). */
const EXEC_MARKER = 'BUGBENCH_EXEC';
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const HOST_PATH = { PATH: process.env.PATH || DEFAULT_PATH };
/** git refuses a work tree another user owns ("dubious ownership"); the sandbox's repository is the one to trust. */
const GIT_TRUSTS_THE_REPOSITORY = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };
const START_TIMEOUT_MS = 30_000;
const NSENTER = hostTool('nsenter');

export interface BwrapSandboxSpec {
  root: string;
  lower: string;
  /** The image's ENV, as NAME=value. */
  imageEnv: string[];
  /** The user's home (from the image's /etc/passwd): HOME unless the image's ENV sets it. */
  home: string;
  volumes: Record<string, string>;
}

export class BwrapSandbox extends RepoSandbox {
  private tar?: Promise<boolean>;

  private constructor(
    readonly id: string,
    readonly image: string,
    readonly runId: string,
    readonly world: ImageWorld,
    private readonly holder: ChildProcess,
    private readonly nsPid: number,
    private readonly env: Record<string, string>,
    private readonly stateRoot: string,
    private readonly record: SandboxRecord,
  ) {
    super();
  }

  static async create(options: SandboxOptions, spec: BwrapSandboxSpec): Promise<BwrapSandbox> {
    const world = options.world ?? BUILT_WORLD;
    const id = randomBytes(6).toString('hex');
    const dir = sandboxDir(spec.root, id);
    const ownDev = world.uid !== 0 || world.gid !== 0;
    await ensurePrivateRoot(spec.root);
    await Promise.all(['upper/etc', 'work', 'merged', ...(ownDev ? ['pts'] : [])].map((sub) => mkdir(join(dir, sub), { recursive: true })));
    // The sandbox has its own network of `lo` alone: its hosts file names only that.
    await writeFile(join(dir, 'upper/etc/hosts'), `127.0.0.1\tlocalhost bugbench-${id}\n::1\tlocalhost ip6-localhost ip6-loopback\n`);
    const record: SandboxRecord = { id, image: options.image, labels: { [LABEL_RUN]: options.runId, ...ownerLabels(), ...options.extraLabels }, lower: spec.lower };
    await writeRecord(spec.root, record);
    const holder = spawn('unshare', ['--user', '--map-root-user', '--mount', '--propagation', 'private', '--', 'sh', '-c', MOUNT_THEN_BWRAP, 'sh', spec.lower, dir, ...bwrapArgs(world, id, dir, spec.volumes)], {
      // fd 3 (bwrap's info) goes to a file (MOUNT_THEN_BWRAP); fd 4 is the sandbox's lifeline (see bwrapArgs):
      // bugbench holds its other end until it removes the sandbox or dies.
      stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'pipe'],
      env: HOST_PATH,
    });
    try {
      const nsPid = await started(holder, dir);
      // The sandbox runs until removed; it holds no pipe of bugbench's open nor keeps it from exiting.
      for (const stream of [holder.stdout, holder.stderr]) stream!.destroy();
      (holder.stdio[4] as Socket).unref();
      holder.unref();
      record.pid = holder.pid;
      record.pidStart = processStartTime(holder.pid!);
      await writeRecord(spec.root, record);
      const imageEnv = Object.fromEntries(spec.imageEnv.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
      const env = { PATH: DEFAULT_PATH, HOSTNAME: `bugbench-${id}`, HOME: spec.home, ...imageEnv, PYTHONDONTWRITEBYTECODE: '1', ...options.env };
      const sandbox = new BwrapSandbox(id, options.image, options.runId, world, holder, nsPid, env, spec.root, record);
      if (options.files?.length) await sandbox.writeFiles(options.files);
      return sandbox;
    } catch (error) {
      (holder.stdio[4] as Socket).destroy();
      await removeSandboxState(spec.root, { ...record, pid: holder.pid, pidStart: holder.pid ? processStartTime(holder.pid) : undefined });
      throw error;
    }
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const started = performance.now();
    const cap = options.maxOutputBytes ?? DEFAULT_OUTPUT_CAP;
    const marker = randomUUID();
    const child = this.enter(command, { ...this.world.env, ...GIT_TRUSTS_THE_REPOSITORY, ...options.env, [EXEC_MARKER]: marker }, options.workdir);
    const outputs = { stdout: new CappedOutput(cap), stderr: new CappedOutput(options.maxStderrBytes ?? cap) };
    for (const name of ['stdout', 'stderr'] as const) {
      const decoder = new StringDecoder('utf8');
      child[name]!.on('data', (chunk: Buffer) => {
        outputs[name].push(chunk);
        const text = options.onOutput ? decoder.write(chunk) : '';
        if (text) options.onOutput!(name as OutputStream, text);
      });
    }
    const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? 128 + signalNumber(signal))));
    const closed = new Promise<'ended'>((resolve) => child.on('close', () => resolve('ended')));
    // A command whose main process ended but left children holding its output is done once the pipe has had a moment.
    const lingering = exited.then(() => delay(200)).then(() => 'lingering' as const);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS);
    });
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<'cancelled'>((resolve) => {
      onAbort = () => resolve('cancelled');
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const outcome = await Promise.race([closed, lingering, timedOut, aborted]);
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    if (outcome === 'timeout' || outcome === 'cancelled') {
      await this.killMarked(marker);
      await Promise.race([closed, delay(2000)]);
    }
    if (outcome !== 'ended') {
      child.stdout!.destroy();
      child.stderr!.destroy();
    }
    const exitCode = await Promise.race([exited, delay(2000).then(() => -1)]);
    return {
      command,
      exitCode,
      stdout: outputs.stdout.text(),
      stderr: outputs.stderr.text(),
      timedOut: outcome === 'timeout',
      cancelled: outcome === 'cancelled',
      truncated: outputs.stdout.truncated || outputs.stderr.truncated,
      durationMs: Math.round(performance.now() - started),
    };
  }

  /** Runs `command` with bash inside the sandbox's namespaces, as its user, with the environment in full. */
  private enter(command: string, env: Record<string, string>, workdir = this.world.root, stdin: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
    const namespaces = ['--user', '--mount', '--pid', '--net', '--ipc', '--uts', '--preserve-credentials', '--root', `--wdns=${workdir}`];
    return spawn(NSENTER, ['--target', String(this.nsPid), ...namespaces, '--', 'bash', '-c', command], {
      stdio: [stdin, 'pipe', 'pipe'],
      env: { ...this.env, ...env },
    });
  }

  private async killMarked(marker: string): Promise<void> {
    const pattern = `^${EXEC_MARKER}=${marker}$`;
    await this.exec(`for p in /proc/[0-9]*; do grep -qsz '${pattern}' "$p/environ" && kill -KILL "\${p#/proc/}" 2>/dev/null; done; true`, { timeoutMs: 10_000 });
  }

  /**
   * Writes the files as the sandbox's user, by a command inside it (so a
   * link in the sandbox leads only where its user could go; folders a write
   * makes are that user's too): tar for all of them at once, or where the
   * image has no tar, `cat` for each.
   */
  async writeFiles(files: FileToWrite[]): Promise<void> {
    const entries = files.map((f) => ({ path: this.absolutePath(f.path), content: typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content, mode: f.mode ?? 0o644 }));
    if (await this.hasTar()) {
      const archive = await packFiles(entries.map((e) => ({ name: e.path.slice(1), content: e.content, mode: e.mode })));
      return this.feed('tar -x --no-same-owner --no-overwrite-dir -C / -f -', archive, files.map((f) => f.path).join(', '));
    }
    for (const entry of entries) {
      const path = shellQuote(entry.path);
      // As tar does: a file (or link) already there is replaced, not written through.
      const write = `mkdir -p -- ${shellQuote(posix.dirname(entry.path))} && rm -f -- ${path} && cat > ${path} && chmod ${entry.mode.toString(8)} -- ${path}`;
      await this.feed(write, entry.content, entry.path);
    }
  }

  /** True when the image has tar (asked once). */
  private hasTar(): Promise<boolean> {
    this.tar ??= this.exec('command -v tar', { timeoutMs: 30_000 }).then((result) => result.exitCode === 0);
    return this.tar;
  }

  /** Runs `command` inside with `input` on its stdin; a failure is a SandboxError naming `what`. */
  private async feed(command: string, input: Buffer, what: string): Promise<void> {
    const child = this.enter(command, {}, '/', 'pipe');
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.stdout!.resume();
    const code = new Promise<number>((resolve) => child.on('close', (exit) => resolve(exit ?? -1)));
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(input);
    const exit = await code;
    if (exit !== 0) throw new SandboxError(`could not write ${what} in ${this.image} (exit ${exit}): ${stderr.trim().slice(-500)}`);
  }

  /**
   * The file as a tar stream, read inside the sandbox as its user: tar's, or
   * where the image has none, one entry made here around `cat`'s output
   * (its size said first, so the reader's byte cap holds from the header on).
   */
  async readArchive(path: string): Promise<NodeJS.ReadableStream> {
    const slash = path.lastIndexOf('/');
    if (await this.hasTar()) {
      const child = this.enter(`tar -C ${shellQuote(path.slice(0, slash) || '/')} -cf - ${shellQuote(path.slice(slash + 1))}`, {}, '/');
      child.stderr!.resume();
      return child.stdout!;
    }
    const stat = await this.exec(`stat -L -c '%s %a' -- ${shellQuote(path)}`, { timeoutMs: 30_000 });
    const [size, mode] = stat.stdout.trim().split(' ');
    if (stat.exitCode !== 0 || !size || !mode) throw new SandboxError(`cannot read ${path} in ${this.image}: ${stat.stderr.trim().slice(-300) || `exit ${stat.exitCode}`}`);
    const child = this.enter(`cat -- ${shellQuote(path)}`, {}, '/');
    child.stderr!.resume();
    const pack = tar.pack();
    const entry = pack.entry({ name: path.slice(slash + 1), size: Number(size), mode: parseInt(mode, 8) }, (error) => {
      if (error) pack.destroy(error);
      else pack.finalize();
    });
    child.stdout!.pipe(entry);
    return Readable.from(pack as AsyncIterable<Buffer>);
  }

  /** Not counted yet: a sandbox here has no cgroup of its own to read (the meter counts it as unread). */
  async cpuSeconds(): Promise<number | undefined> {
    return undefined;
  }

  async remove(): Promise<void> {
    if (metering()) recordContainerCpu(await this.cpuSeconds(), this.runId);
    const ended = new Promise<void>((resolve) => {
      if (this.holder.exitCode !== null || this.holder.signalCode !== null) resolve();
      else this.holder.on('exit', () => resolve());
    });
    await writeRecord(this.stateRoot, { ...this.record, removing: true }).catch(() => undefined);
    // Held again until it has ended: an unreferenced process's exit would not keep bugbench waiting for it.
    this.holder.ref();
    // The namespace's first process, and with it every process in the sandbox: bwrap outside it then reaps it and
    // ends, and this process reaps bwrap. Killing bwrap first would leave the first process to init, a zombie.
    if (this.holder.exitCode === null && this.holder.signalCode === null) {
      try {
        process.kill(this.nsPid, 'SIGKILL');
      } catch {
        // Ended already.
      }
    }
    const stuck = setTimeout(() => this.holder.kill('SIGKILL'), 2000);
    await ended;
    clearTimeout(stuck);
    // Closed only now: closed first, the sandbox's command would end by itself, and bwrap would take its status
    // from its first process and end before that process was reaped.
    (this.holder.stdio[4] as Socket).destroy();
    await removeSandboxState(this.stateRoot, this.record);
  }
}

/**
 * In unshare's namespaces: mount the overlay (lower layer $1, sandbox folder
 * $2) and, where the sandbox makes its own /dev, a private devpts at $2/pts;
 * then become bwrap with the rest.
 */
const MOUNT_THEN_BWRAP = [
  'L=$1 S=$2; shift 2;',
  'mount -t overlay overlay -o "lowerdir=$L,upperdir=$S/upper,workdir=$S/work,userxattr" "$S/merged" &&',
  '{ [ ! -d "$S/pts" ] || mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$S/pts"; } &&',
  'exec bwrap "$@" 3>"$S/info.json"',
].join(' ');

/**
 * A /dev as bwrap's --dev makes it (the host's harmless devices, /dev/shm, a
 * pts of the sandbox's own), for a sandbox whose user is not root: --dev
 * there makes bwrap nest a second user namespace, which commands could not
 * join (nsenter: "reassociate to namespace 'ns/ipc' failed").
 */
function ownDevArgs(dir: string): string[] {
  const devices = ['null', 'zero', 'full', 'random', 'urandom', 'tty'].flatMap((d) => ['--dev-bind', `/dev/${d}`, `/dev/${d}`]);
  const links = [['/proc/self/fd', 'fd'], ['/proc/self/fd/0', 'stdin'], ['/proc/self/fd/1', 'stdout'], ['/proc/self/fd/2', 'stderr'], ['pts/ptmx', 'ptmx']].flatMap(([target, name]) => ['--symlink', target!, `/dev/${name}`]);
  return ['--tmpfs', '/dev', ...devices, ...links, '--perms', '1777', '--tmpfs', '/dev/shm', '--dev-bind', join(dir, 'pts'), '/dev/pts'];
}

function bwrapArgs(world: ImageWorld, id: string, dir: string, volumes: Record<string, string>): string[] {
  return [
    '--unshare-user', '--uid', String(world.uid), '--gid', String(world.gid),
    '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--hostname', `bugbench-${id}`,
    '--bind', join(dir, 'merged'), '/',
    '--proc', '/proc',
    ...(world.uid !== 0 || world.gid !== 0 ? ownDevArgs(dir) : ['--dev', '/dev']),
    ...Object.entries(volumes).flatMap(([volume, path]) => ['--bind', volume, path]),
    // The work folder is made when the image lacks it, as Docker makes a WorkingDir.
    '--dir', world.root, '--chdir', world.root,
    '--info-fd', '3',
    // Runs until fd 4 reads its end: until bugbench closes it, or dies, whenever that is. Not --die-with-parent:
    // bwrap sets that up late, and a bugbench that died meanwhile (a task cancelled while making the sandbox)
    // left it running, or killed bwrap before it let its child go and left that child waiting for ever.
    '--', 'sh', '-c', 'echo ready; read -r _ <&4',
  ];
}

/**
 * Waits for the sandbox's first process to say it is up; its pid (from the
 * info bwrap wrote to `dir`/info.json before it let that process start) is
 * what commands join.
 */
function started(holder: ChildProcess, dir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(`it did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new SandboxError(`could not start a bwrap sandbox: ${why}${err.trim() ? `: ${err.trim().slice(-500)}` : ''} (does \`bugbench doctor\` say user namespaces are enabled?)`));
    };
    holder.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('ready\n')) return;
      let info = '';
      try {
        info = readFileSync(join(dir, 'info.json'), 'utf8');
      } catch (error) {
        return fail(`bwrap wrote no info: ${(error as Error).message}`);
      }
      const match = /"child-pid"\s*:\s*(\d+)/.exec(info);
      if (!match) return fail(`bwrap's info names no child-pid: ${info.slice(0, 200)}`);
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
    holder.stderr!.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-4000);
    });
    holder.on('error', (error) => fail(error.message));
    holder.on('exit', (code) => fail(`it ended (exit ${code})`));
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  const numbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 };
  return signal ? (numbers[signal] ?? 0) : 0;
}
