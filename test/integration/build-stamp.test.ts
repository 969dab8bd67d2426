/**
 * The first `npm start` after `npm ci` opens the workbench without compiling
 * (issue 34, item 5): `prepare` builds through scripts/build.mjs, which writes
 * the stamp that scripts/build-if-stale.mjs compares with the sources.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';

const STAMP = join(PACKAGE_ROOT, 'dist', '.built');

describe('the build stamp', () => {
  it('is written by the build prepare runs, so the next start does not compile again', async () => {
    // As after a fresh `npm ci`: no stamp yet.
    rmSync(STAMP, { force: true });
    const prepared = await execa('npm', ['run', 'prepare', '--silent'], { cwd: PACKAGE_ROOT, reject: false });
    expect(prepared.exitCode, prepared.stderr).toBe(0);
    expect(existsSync(STAMP)).toBe(true);
    const built = statSync(STAMP).mtimeMs;
    const start = await execa('node', ['scripts/build-if-stale.mjs'], { cwd: PACKAGE_ROOT, reject: false });
    expect(start.exitCode).toBe(0);
    expect(start.stderr).not.toContain('compiling');
    expect(statSync(STAMP).mtimeMs).toBe(built);
  }, 180_000);
});
