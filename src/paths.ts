/** Where bugbench's own files are (prompts, sample data) and where it keeps its work. */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'bugbench') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('bugbench: cannot find its own package.json');
    dir = parent;
  }
}

/** The installed bugbench package (holds data/ and prompts/), whether running from src/ or dist/. */
export const PACKAGE_ROOT = findPackageRoot();
export const SAMPLES_DIR = join(PACKAGE_ROOT, 'data', 'samples');
export const PROMPTS_DIR = join(PACKAGE_ROOT, 'prompts');

/** The workspace: `BUGBENCH_HOME`, else `.bugbench/` in the current directory. */
export function workspaceDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.BUGBENCH_HOME || '.bugbench');
}

export function workspacePath(...parts: string[]): string {
  return join(workspaceDir(), ...parts);
}

/** A folder the user typed, as a shell would read it: `~` and `~/…` are in the home folder; the rest is resolved from here. */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return resolve(path);
}
