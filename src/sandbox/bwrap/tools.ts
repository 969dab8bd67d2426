/** The host tools the bwrap kind runs (mksquashfs, unsquashfs, bwrap), and removing the trees they leave. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readdir, rm, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SandboxError } from '../../errors.js';

const run = promisify(execFile);

/** Runs a host tool; a failure is a SandboxError that names it and what it said. */
export async function runTool(tool: string, args: string[]): Promise<string> {
  try {
    return (await run(tool, args, { maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    const failure = error as { code?: string | number; stderr?: string };
    if (failure.code === 'ENOENT') throw new SandboxError(`${tool} is not installed; install it (Debian: apt-get install bubblewrap squashfs-tools)`);
    throw new SandboxError(`${tool} failed: ${(failure.stderr ?? String(error)).trim().slice(-500)}`);
  }
}

/**
 * Removes a folder tree this user made, whatever its modes (an overlay's
 * work/work is mode 000, an image's folders may be read-only).
 */
export async function removeTree(dir: string): Promise<void> {
  await openUp(dir);
  await rm(dir, { recursive: true, force: true });
}

async function openUp(dir: string): Promise<void> {
  try {
    if (!(await lstat(dir)).isDirectory()) return;
    await chmod(dir, 0o700);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await openUp(join(dir, entry.name));
    }
  } catch {
    // Gone already, or not ours to open: rm says what it cannot remove.
  }
}

/** Where a host tool is on this process's PATH (commands inside a sandbox get the image's PATH instead). */
export function hostTool(name: string): string {
  for (const dir of (process.env.PATH || '/usr/local/bin:/usr/bin:/bin').split(':')) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return name;
}
