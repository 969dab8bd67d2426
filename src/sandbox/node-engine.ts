/**
 * The engine a cluster task uses on its node, as the job user: the addresses
 * the job's environment names (DOCKER_HOST, e.g. the bwrap:///DIR folders of
 * packed images a run gives its tasks); else the node's Docker engine if
 * the user may use its socket; else the user's own rootless Podman, at the
 * socket Podman puts it by default (scripts/podman-up starts one there), or,
 * when none answers, a Podman service the task starts for itself and stops
 * when it ends (it also stops on its own once idle for two minutes, should the
 * task be killed). The rest of bugbench then talks to it as to any engine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { delay } from '../delay.js';
import { errorMessage, SetupError } from '../errors.js';
import { engineAt, engineTypeOf } from './engine-table.js';
import { stateRoot } from './bwrap/state.js';
import { DEFAULT_ENGINE_HOST, engineSpecs } from './engine-config.js';
import { commandExists } from './path-commands.js';
import { describeKind } from './engine-kind.js';

export interface NodeEngine {
  host: string;
  /** e.g. "rootless Podman 4.3.1 (runc) at unix:///tmp/podman-run-1001/podman/podman.sock". */
  description: string;
  /** Stops what was started for the task (nothing for an engine that was already there). */
  stop(): Promise<void>;
}

/**
 * Where rootless Podman serves a user's API by default: under
 * $XDG_RUNTIME_DIR, else /run/user/UID when that exists, else
 * /tmp/podman-run-UID (Podman's own rule, so a service started by hand, by
 * scripts/podman-up and by a task all meet at the same socket and state);
 * root's is /run/podman/podman.sock.
 */
export function podmanUserSocket(uid: number, env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): string {
  if (uid === 0) return '/run/podman/podman.sock';
  const runtime = env.XDG_RUNTIME_DIR || (exists(`/run/user/${uid}`) ? `/run/user/${uid}` : `/tmp/podman-run-${uid}`);
  return join(runtime, 'podman', 'podman.sock');
}

async function answers(host: string): Promise<boolean> {
  try {
    await engineAt(host).ping(3000);
    return true;
  } catch {
    return false;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

async function describe(host: string, how = ''): Promise<string> {
  try {
    return `${describeKind(await engineAt(host).kind())}${how} at ${host}`;
  } catch {
    return `the engine${how} at ${host}`;
  }
}

const already = (host: string) => async (): Promise<NodeEngine> => ({ host, description: await describe(host), stop: async () => undefined });

/**
 * The engines the job names (a DOCKER_HOST list with ?slots and names), each
 * tried once: one that does not answer fails the task at its start with the
 * engine's words, not its first rollout.
 */
async function namedEngines(named: string, env: NodeJS.ProcessEnv): Promise<NodeEngine> {
  const described: string[] = [];
  for (const { host } of engineSpecs({ ...env, DOCKER_HOST: named })) {
    try {
      await engineAt(host).ping(10_000);
    } catch (error) {
      throw new SetupError(`the engine this task was given (DOCKER_HOST=${named}) cannot be used here: ${errorMessage(error)}`);
    }
    // Where the images go matters on a node: the unpacked image is about its size.
    const where = engineTypeOf(host) === 'bwrap' ? `, images unpacked in ${stateRoot(env)}` : '';
    described.push(`${await describe(host)}${where}`);
  }
  return { host: named, description: described.join('; '), stop: async () => undefined };
}

function homeOf(uid: number): string | undefined {
  try {
    return readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find((f) => Number(f[2]) === uid)?.[5];
  } catch {
    return undefined;
  }
}

/** Starts `podman system service` on a socket of the task's own; resolves once it answers. */
async function startPodmanService(socket: string, env: NodeJS.ProcessEnv): Promise<NodeEngine> {
  mkdirSync(dirname(socket), { recursive: true, mode: 0o700 });
  const host = `unix://${socket}`;
  const log = openSync(socket.replace(/\.sock$/, '.log'), 'a');
  // A Slurm job's environment may lack HOME, where rootless Podman keeps its images, and XDG_RUNTIME_DIR,
  // without which Podman 4.3 cannot commit an image ("runroot must be set").
  const uid = process.getuid?.() ?? 0;
  const home = env.HOME || homeOf(uid);
  const runtime = env.XDG_RUNTIME_DIR || (uid === 0 ? undefined : dirname(dirname(podmanUserSocket(uid, env))));
  const child: ChildProcess = spawn('podman', ['system', 'service', '--time=120', host], {
    // Its conmons inherit the working folder: / outlives the task's own.
    cwd: '/',
    stdio: ['ignore', log, log],
    env: { ...env, ...(home ? { HOME: home } : {}), ...(runtime ? { XDG_RUNTIME_DIR: runtime } : {}) },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  while (!(await answers(host))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new SetupError(`podman system service did not come up at ${socket} (log: ${socket.replace(/\.sock$/, '.log')})`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    host,
    description: await describe(host, ' started for this task'),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), delay(10_000).then(() => false)]);
      if (!stopped) child.kill('SIGKILL');
    },
  };
}

/** Picks (and if need be starts) the engine for a task on this node; a SetupError says what the node lacks. */
export async function nodeEngine(env: NodeJS.ProcessEnv = process.env): Promise<NodeEngine> {
  const named = env.DOCKER_HOST?.trim();
  if (named) return namedEngines(named, env);
  const dockerSocket = DEFAULT_ENGINE_HOST.slice('unix://'.length);
  const tried: string[] = [];
  if (existsSync(dockerSocket)) {
    if (writable(dockerSocket) && (await answers(DEFAULT_ENGINE_HOST))) return already(DEFAULT_ENGINE_HOST)();
    tried.push(`the Docker engine at ${dockerSocket} is closed to this user (not in its group) or does not answer`);
  } else tried.push(`no Docker engine at ${dockerSocket}`);
  const uid = process.getuid?.() ?? 0;
  const socket = podmanUserSocket(uid, env);
  if (existsSync(socket) && (await answers(`unix://${socket}`))) return already(`unix://${socket}`)();
  if (await commandExists('podman')) {
    try {
      return await startPodmanService(join(dirname(socket), `bugbench-task-${process.pid}.sock`), env);
    } catch (error) {
      tried.push(errorMessage(error));
    }
  } else tried.push('podman is not installed');
  throw new SetupError(
    `this node has no container engine the job user can use: ${tried.join('; ')}. ` +
      'Give the user the Docker group, or install Podman (apt-get install podman catatonit uidmap) and give the user subuid/subgid ranges',
  );
}
