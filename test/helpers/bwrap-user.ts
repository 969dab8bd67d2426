/**
 * Running the bwrap engine kind as an ordinary user, as a cluster node does:
 * a folder of packed images, a state folder of that user's, and scripts or
 * the CLI run as the Slurm job user `bugbench` when the tests run as root.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';

/** What a run as the user gave. */
export interface UserRun {
  exitCode?: number;
  stdout: string;
  stderr: string;
}
import { BIN, DIST } from './cli.js';

/** The Slurm job user (scripts/slurm-up): not root. */
export const BWRAP_USER = 'bugbench';

const asRoot = process.getuid?.() === 0;

export interface BwrapPlace {
  images: string;
  state: string;
  /** Runs a module as the user, with `engine` the bwrap engine of `images`; never throws on a non-zero exit. */
  asUser(script: string): Promise<UserRun>;
  /** The same as this process (root where the tests run as root), with a state folder of its own. */
  asThisProcess(script: string): Promise<UserRun>;
  /** Runs the CLI as the user with DOCKER_HOST=bwrap://images and the given environment. */
  cli(args: string[], env?: Record<string, string>): Promise<UserRun>;
}

/** Makes `dir`/images (readable by the user) and `dir`/state (the user's). */
export async function bwrapPlace(dir: string): Promise<BwrapPlace> {
  const images = join(dir, 'images');
  const state = join(dir, 'state');
  mkdirSync(images, { recursive: true });
  mkdirSync(state);
  for (const path of [dir, images]) chmodSync(path, 0o755);
  if (asRoot) await execa('chown', [BWRAP_USER, state]);
  const run = (argv: string[], env: Record<string, string>): Promise<UserRun> =>
    execa(asRoot ? '/usr/sbin/runuser' : argv[0]!, asRoot ? ['-u', BWRAP_USER, '--', ...argv] : argv.slice(1), { reject: false, extendEnv: false, env: { PATH: process.env.PATH ?? '', BUGBENCH_BWRAP_STATE: state, ...env } }) as Promise<UserRun>;
  return {
    images,
    state,
    asUser: (script) => run(['node', scriptFile(dir, images, script)], {}),
    asThisProcess: (script) =>
      execa('node', [scriptFile(dir, images, script)], { reject: false, extendEnv: false, env: { PATH: process.env.PATH ?? '', BUGBENCH_BWRAP_STATE: join(dir, 'state-of-this-process') } }) as Promise<UserRun>,
    cli: (args, env = {}) => run(['node', BIN, ...args], { DOCKER_HOST: `bwrap://${images}`, BUGBENCH_HOME: join(state, 'home'), ...env }),
  };
}

/** A module that runs `script` with `engine` the bwrap engine of `images`. */
function scriptFile(dir: string, images: string, script: string): string {
  const file = join(dir, `script-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, `const { engineAt } = await import(${JSON.stringify(`${DIST}/sandbox/engine-table.js`)});\nconst engine = engineAt('bwrap://${images}');\n${script}`);
  chmodSync(file, 0o644);
  return file;
}

/** Gives the user a copy it owns (an artifact the CLI writes into). */
export async function giveToUser(path: string): Promise<void> {
  if (asRoot) await execa('chown', ['-R', BWRAP_USER, path]);
}
