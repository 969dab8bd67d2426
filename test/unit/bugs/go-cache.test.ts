/**
 * The run script's shared Go build cache, run by bash against a stub `go`
 * whose `go env GOCACHE` names a folder of this test's: seeded once from the
 * image's cache, used by every later run, left alone where there is no go or
 * the image's cache is too large to copy.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedGoCache } from '../../../src/bugs/go-cache.js';

const root = mkdtempSync(join(tmpdir(), 'bugbench-go-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A container's view: a shared folder, the image's own cache with one entry, and a PATH with a stub go (or none). */
function world(name: string, withGo = true) {
  const dir = join(root, name);
  const shared = join(dir, 'shared');
  const own = join(dir, 'own-cache');
  const bin = join(dir, 'bin');
  for (const d of [shared, join(own, 'ab'), bin]) mkdirSync(d, { recursive: true });
  writeFileSync(join(own, 'ab', 'entry-d'), 'compiled\n');
  if (withGo) {
    writeFileSync(join(bin, 'go'), `#!/bin/bash\n[ "$1 $2" = "env GOCACHE" ] && echo ${own}\n`);
    chmodSync(join(bin, 'go'), 0o755);
  }
  /** GOCACHE after the snippet, in a fresh bash like each run's. */
  const run = (limitKb?: number) =>
    execFileSync('/bin/bash', ['-c', `${sharedGoCache(shared, limitKb)}\nprintf '%s' "\${GOCACHE-}"`], { env: { PATH: `${bin}:/usr/bin:/bin` }, encoding: 'utf8' });
  return { shared, own, run };
}

describe("the run script's shared Go build cache", () => {
  it("is seeded once from the image's cache and used by every run after", () => {
    const { shared, own, run } = world('seeded');
    expect(run()).toBe(join(shared, 'go-build'));
    expect(readFileSync(join(shared, 'go-build', 'ab', 'entry-d'), 'utf8')).toBe('compiled\n');
    // A second run (the other lane) does not copy again: what the image's cache gained since stays out.
    writeFileSync(join(own, 'ab', 'later-d'), 'x\n');
    expect(run()).toBe(join(shared, 'go-build'));
    expect(existsSync(join(shared, 'go-build', 'ab', 'later-d'))).toBe(false);
  });

  it("leaves each container its own cache when the image's is larger than the limit, and says so once", () => {
    const { shared, run } = world('large');
    expect(run(0)).toBe('');
    expect(readFileSync(join(shared, 'go-build.seeded'), 'utf8')).toBe('own\n');
    expect(run()).toBe('');
  });

  it('does nothing where there is no go', () => {
    const { shared, run } = world('no-go', false);
    expect(run()).toBe('');
    expect(existsSync(join(shared, 'go-build.seeded'))).toBe(false);
  });
});
