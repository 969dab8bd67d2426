/**
 * Making sure an engine answers: install Debian's docker.io and start dockerd
 * when this process is allowed to (root, the local Docker socket), else say
 * exactly what the user has to run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { errorMessage, SetupError } from '../errors.js';
import { workspacePath } from '../paths.js';
import type { Progress } from '../progress.js';
import { engineHosts } from './engine-config.js';
import { engineAt } from './engine-table.js';
import type { EngineInfo } from './port.js';
import { DEFAULT_ENGINE_HOST } from './engine-config.js';
import { commandExists } from './path-commands.js';

const START_TIMEOUT_MS = 60_000;

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Installs Debian packages with apt-get, logging to `logFile`. */
export async function aptInstall(packages: string[], progress: Progress, logFile: string): Promise<void> {
  if (!isRoot()) {
    throw new SetupError(`installing ${packages.join(', ')} needs root; run: sudo apt-get install -y ${packages.join(' ')}`);
  }
  if (!(await commandExists('apt-get'))) {
    throw new SetupError(`cannot install ${packages.join(', ')}: this machine has no apt-get; install them by hand`);
  }
  mkdirSync(join(logFile, '..'), { recursive: true });
  const log = { file: logFile, append: true } as const;
  progress(`installing ${packages.join(', ')} with apt-get (log: ${logFile})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = await execa('apt-get', ['update'], { stdout: log, stderr: log, env, reject: false });
  if (update.exitCode !== 0) throw new SetupError(`apt-get update failed; see ${logFile}`);
  const install = await execa('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
    stdout: log,
    stderr: log,
    env,
    reject: false,
  });
  if (install.exitCode !== 0) throw new SetupError(`apt-get install ${packages.join(' ')} failed; see ${logFile}`);
}

/** Returns the engine's info, installing and starting dockerd first if nothing answers. */
export async function ensureEngine(progress: Progress): Promise<EngineInfo> {
  const host = engineHosts()[0]!;
  try {
    return await engineAt(host).info();
  } catch (error) {
    progress(`no engine answers at ${host}`);
    // Only the local Docker socket is bugbench's to start; any other address names an engine someone else runs.
    if (host !== DEFAULT_ENGINE_HOST) {
      throw new SetupError(`the engine at ${host} does not answer (${errorMessage(error)}); start it there (a rootless Podman service: scripts/podman-up)`);
    }
  }
  if (!isRoot()) {
    throw new SetupError(
      'no Docker engine runs and starting one needs root; run: sudo apt-get install -y docker.io && sudo dockerd &',
    );
  }
  const logs = workspacePath('logs');
  mkdirSync(logs, { recursive: true });
  if (!(await commandExists('dockerd'))) await aptInstall(['docker.io'], progress, join(logs, 'apt.log'));

  const logFile = join(logs, 'dockerd.log');
  progress(`starting dockerd (log: ${logFile})`);
  const out = openSync(logFile, 'a');
  const daemon = spawn('dockerd', [], { detached: true, stdio: ['ignore', out, out] });
  daemon.unref();
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const info = await engineAt(host).info(1000);
      progress(`Docker engine ${info.version} is up`);
      return info;
    } catch {
      if (daemon.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new SetupError(`dockerd did not come up within ${START_TIMEOUT_MS / 1000} s; see ${logFile}`);
}
