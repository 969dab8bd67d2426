import { join } from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../../src/paths.js';

export const BIN = join(PACKAGE_ROOT, 'bin', 'bugbench.js');
export const DIST = join(PACKAGE_ROOT, 'dist', 'src');

/** Runs the built `bugbench` binary; never throws on a non-zero exit. */
export function bugbench(args: string[], options: { env?: Record<string, string>; cwd?: string; timeout?: number } = {}) {
  return execa('node', [BIN, ...args], {
    reject: false,
    env: options.env,
    cwd: options.cwd,
    timeout: options.timeout ?? 120_000,
  });
}
