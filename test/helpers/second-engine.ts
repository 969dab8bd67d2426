/**
 * A second real Docker engine for the tests of several engines: started by
 * scripts/second-engine-up (with its own data root, exec root, pid file and
 * socket) and stopped again by scripts/second-engine-down if this helper
 * started it. A test file that uses it calls `startSecondEngine` in beforeAll
 * and `stopSecondEngine` in afterAll.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../../src/paths.js';

export const SECOND_ENGINE_DIR = process.env.BUGBENCH_ENGINE2_DIR || '/tmp/bugbench-docker2';
const UP = join(PACKAGE_ROOT, 'scripts', 'second-engine-up');
const DOWN = join(PACKAGE_ROOT, 'scripts', 'second-engine-down');

let startedHere = false;

/** Starts the second engine (or finds it up) and returns its address. */
export async function startSecondEngine(): Promise<string> {
  const up = await execa(UP, [SECOND_ENGINE_DIR], { reject: false });
  if (up.exitCode !== 0) throw new Error(`scripts/second-engine-up failed:\n${up.stderr}`);
  if (!up.stderr.includes('already up')) startedHere = true;
  return up.stdout.trim();
}

/** Stops it (the engine's containers and images stay in its data root), as an engine going away mid-run. */
export async function stopEngineNow(): Promise<void> {
  const down = await execa(DOWN, [SECOND_ENGINE_DIR], { reject: false });
  if (down.exitCode !== 0) throw new Error(`scripts/second-engine-down failed:\n${down.stderr}`);
}

/** Stops it at the end of a file, only if this helper started it. */
export async function stopSecondEngine(): Promise<void> {
  if (startedHere) await stopEngineNow();
  startedHere = false;
}
