/**
 * Before any test: the CLI built (tests run the real binary), a Docker engine
 * that answers, the base image and the sample images — made by the same code as
 * `bugbench doctor --fix` — the local Slurm cluster the training tests use
 * (scripts/slurm-up), and a rootless Podman service (scripts/podman-up) with
 * copies of the images the `podman` project's tests use, so a fresh machine
 * sets itself up (a few minutes the first time, seconds after).
 */
import { join } from 'node:path';
import { execa } from 'execa';
import type { TestProject } from 'vitest/node';
import { PACKAGE_ROOT } from '../src/paths.js';
import { fix, reportHealthy } from '../src/pipeline/doctor.js';
import { aptInstall, ensureEngine } from '../src/sandbox/engine.js';
import { commandExists } from '../src/sandbox/path-commands.js';
import { workspacePath } from '../src/paths.js';
import { copyTestImages, startPodman } from './helpers/podman.js';

export default async function setup(project: TestProject): Promise<void> {
  const started = Date.now();
  const log = (message: string) => process.stderr.write(`[setup] ${message}\n`);
  // `npm test` has just built it; a run of vitest alone builds it here when a source changed since.
  await execa(process.execPath, [join(PACKAGE_ROOT, 'scripts', 'build-if-stale.mjs')], { cwd: PACKAGE_ROOT, stdio: 'inherit' });
  // The end-to-end tests drive the real TUI in tmux; the bwrap engine kind's tests need bubblewrap and squashfs-tools.
  const tools: Array<[string, string]> = [['tmux', 'tmux'], ['bwrap', 'bubblewrap'], ['mksquashfs', 'squashfs-tools']];
  const missing: string[] = [];
  for (const [command, pkg] of tools) if (!(await commandExists(command))) missing.push(pkg);
  if (missing.length > 0) await aptInstall(missing, log, workspacePath('logs', 'apt.log'));
  // The Docker engine comes first: slurm-up puts the job user in the group of the engine's socket,
  // which exists only once Docker is installed (jobs started before that could never reach it).
  await ensureEngine(log);
  // The slurm engine's tests need a real cluster: installed and started when missing, ~50 ms when up.
  const slurm = await execa(join(PACKAGE_ROOT, 'scripts', 'slurm-up'), [], { reject: false, all: true });
  if (slurm.exitCode !== 0) throw new Error(`scripts/slurm-up failed:\n${slurm.all}`);
  log(slurm.all.split('\n').filter((line) => line.includes(' up '))[0] ?? 'local Slurm is up');
  const report = await fix(log);
  if (!reportHealthy(report)) {
    throw new Error(`test environment is not ready: ${JSON.stringify(report)}`);
  }
  // The podman project runs engine-facing tests again on a rootless Podman of a user outside the docker group.
  const podman = await startPodman();
  await copyTestImages(podman, log);
  project.provide('podmanHost', podman);
  process.stderr.write(`[setup] build, engine and images ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
