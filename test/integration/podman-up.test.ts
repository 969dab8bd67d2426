/**
 * scripts/podman-up on a machine where a user's Podman state outlived its
 * processes: the user's runtime folder is in /tmp (no /run/user here), so it
 * survives the end of a session, and a container recorded as running then
 * points at processes that are gone. Every podman command stops at "invalid
 * internal status" until `podman system migrate`; podman-up must do that
 * itself (a CI run on a machine that had run the tests before failed there).
 *
 * A user of its own, so the tests' Podman service is never touched; its
 * container runs from a two-file root (sleep and its libraries), so no image
 * has to be copied to it.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';

const USER = 'bbpodrestart';
const state = mkdtempSync(join(tmpdir(), 'bugbench-podman-up-'));
const env = { ...process.env, BUGBENCH_PODMAN_DIR: state };
const script = (name: string) => join(PACKAGE_ROOT, 'scripts', name);
const up = () => execa(script('podman-up'), ['--user', USER], { env, reject: false });
const asRoot = process.getuid?.() === 0;

/** A root folder holding /bin/sleep and the libraries it links, owned by the user. */
function sleepRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'bugbench-sleep-root-'));
  for (const dir of ['bin', 'run', 'proc', 'dev', 'sys', 'etc', 'tmp']) mkdirSync(join(root, dir));
  const libraries = execFileSync('ldd', ['/usr/bin/sleep'], { encoding: 'utf8' }).match(/\/\S+/g) ?? [];
  for (const file of ['/usr/bin/sleep', ...libraries]) {
    const target = join(root, file === '/usr/bin/sleep' ? '/bin/sleep' : file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  execFileSync('chown', ['-R', USER, root]);
  return root;
}

/** Runs podman as the user, the way podman-up does (its runtime folder in /tmp). */
function podmanAsUser(args: string[]) {
  const uid = execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim();
  return execa('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--init-groups', '--', 'env', '-i', `HOME=/home/${USER}`, `USER=${USER}`,
    'PATH=/usr/bin:/bin', `XDG_RUNTIME_DIR=/tmp/podman-run-${uid}`, 'podman', ...args], { reject: false, cwd: '/tmp' });
}

describe.skipIf(!asRoot)('scripts/podman-up', () => {
  afterAll(async () => {
    await execa(script('podman-down'), ['--user', USER], { env, reject: false });
    await execa('pkill', ['-KILL', '-u', USER], { reject: false });
  });

  it('comes up for a user whose Podman state outlived its processes, resetting it once', async () => {
    const first = await up();
    expect(first.exitCode, first.stderr).toBe(0);
    const started = await podmanAsUser(['run', '-d', '--network', 'none', '--rootfs', sleepRoot(), '/bin/sleep', '600']);
    expect(started.exitCode, started.stderr).toBe(0);

    // The session ends: every process of the user goes, its runtime folder stays.
    await execa(script('podman-down'), ['--user', USER], { env });
    await execa('pkill', ['-KILL', '-u', USER], { reject: false });
    await vi.waitFor(async () => expect((await execa('pgrep', ['-u', USER], { reject: false })).stdout).toBe(''), { timeout: 30_000, interval: 100 });
    const stuck = await podmanAsUser(['ps']);
    expect(stuck.stderr).toMatch(/podman system migrate/);

    const again = await up();
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/resetting Podman's state for bbpodrestart.*podman system migrate/);
    const socket = again.stdout.trim().replace(/^unix:\/\//, '');
    const ping = await execa('curl', ['-sf', '--unix-socket', socket, 'http://localhost/_ping'], { reject: false });
    expect(ping.stdout).toBe('OK');

    // Up already: no reset, no second service.
    const third = await up();
    expect(third.exitCode, third.stderr).toBe(0);
    expect(third.stderr).toMatch(/already up/);
  }, 120_000);

  it('starts the service out of the caller\'s folder, so containers still start once that folder is gone', async () => {
    await execa(script('podman-down'), ['--user', USER], { env });
    // A CI run starts it from its checkout, which is deleted before the next run reuses the service.
    const caller = mkdtempSync(join(tmpdir(), 'bugbench-podman-caller-'));
    const started = await execa(script('podman-up'), ['--user', USER], { env, cwd: caller, reject: false });
    expect(started.exitCode, started.stderr).toBe(0);
    rmSync(caller, { recursive: true });
    const ran = await podmanAsUser(['--url', started.stdout.trim(), 'run', '--rm', '--network', 'none', '--rootfs', sleepRoot(), '/bin/sleep', '0']);
    expect(ran.exitCode, ran.stderr).toBe(0);
  }, 120_000);
});
