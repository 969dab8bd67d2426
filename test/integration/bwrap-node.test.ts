/**
 * A node with no container engine, as an ordinary user: packed images that
 * are not like bugbench's own on the bwrap engine kind (one run by a user of
 * its own, `USER app`, as many projects' images are; one with no tar at
 * all), and what `doctor` says of the node.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapPlace, giveToUser, type BwrapPlace } from '../helpers/bwrap-user.js';
import { bugbench } from '../helpers/cli.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/artifacts');
/** knotcfg with its repository owned by `app`, who the image runs as (its labels kept: bugbench's image, run as it says). */
const AS_APP = 'bugbench-test/knotcfg-as-app:latest';
/** knotcfg with tar removed. */
const NO_TAR = 'bugbench-test/knotcfg-no-tar:latest';

const dir = mkdtempSync(join(tmpdir(), 'bb-bwrap-images-'));
let place: BwrapPlace;

async function build(tag: string, lines: string[]): Promise<void> {
  const context = mkdtempSync(join(dir, 'context-'));
  writeFileSync(join(context, 'Dockerfile'), ['FROM bugbench/repo-knotcfg:latest', ...lines].join('\n'));
  await execa('docker', ['build', '--network', 'none', '-q', '-t', tag, context]);
}

beforeAll(async () => {
  place = await bwrapPlace(dir);
  await build(AS_APP, ['RUN useradd -m -u 1000 -s /bin/bash app && chown -R app:app /repo', 'USER app']);
  await build(NO_TAR, ['RUN rm -f /usr/bin/tar /bin/tar && ! command -v tar']);
  for (const image of [AS_APP, NO_TAR]) {
    const packed = await bugbench(['images', 'pack', image, '--out', `${place.images}/`, '--json']);
    expect(packed.exitCode, packed.stderr).toBe(0);
  }
}, 600_000);

afterAll(async () => {
  await execa('docker', ['rmi', '-f', AS_APP, NO_TAR], { reject: false });
  rmSync(dir, { recursive: true, force: true });
});

describe('packed images on the bwrap kind', () => {
  it('runs an image as its own non-root user, with its uid and HOME, and every file it and bugbench write is its', async () => {
    const run = await place.asUser(`
      const sandbox = await engine.createSandbox({ image: ${JSON.stringify(AS_APP)}, runId: 'bwrap-as-app' });
      const who = (await sandbox.run('echo "$(id -u) $(id -g) $(id -un) $HOME $(pwd)"')).stdout.trim();
      const home = await sandbox.exec('touch ~/.made-at-home && ls -n ~/.made-at-home');
      await sandbox.writeFiles([{ path: 'new/dir/written.txt', content: 'by bugbench\\n' }, { path: '/tmp/t.txt', content: 'tmp\\n' }]);
      await sandbox.run('echo by-the-user > mine.txt');
      const owners = (await sandbox.run('stat -c "%u:%g %n" new new/dir new/dir/written.txt /tmp/t.txt mine.txt README.md')).stdout;
      const read = (await sandbox.readFile('mine.txt')).toString() + (await sandbox.readFile('new/dir/written.txt')).toString();
      const tests = await sandbox.exec('python3 -m pytest -q 2>&1 | tail -1', { timeoutMs: 120000 });
      await sandbox.remove();
      console.log(JSON.stringify({ who, home: home.exitCode, owners, read, tests: tests.stdout }));
    `);
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(result.who).toBe('1000 1000 app /home/app /repo');
    expect(result.home).toBe(0);
    // Every file, those bugbench wrote and those of the image (unpacked as the node's user), is app's inside.
    expect(result.owners.trim().split('\n').map((line: string) => line.split(' ')[0])).toEqual(Array(6).fill('1000:1000'));
    expect(result.read).toBe('by-the-user\nby bugbench\n');
    expect(result.tests).toMatch(/^\d+ passed/);
  }, 180_000);

  it('runs it as its user also when bugbench runs as root (unpacked as root, files would keep owners the user could not write)', async () => {
    const run = await place.asThisProcess(`
      const sandbox = await engine.createSandbox({ image: ${JSON.stringify(AS_APP)}, runId: 'bwrap-as-app-root' });
      await sandbox.writeFile('made/here.txt', 'x\\n');
      const out = (await sandbox.run('id -u && echo more >> README.md && stat -c %u made/here.txt README.md')).stdout;
      await sandbox.remove();
      console.log(JSON.stringify({ out, uid: process.getuid() }));
    `);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!).out).toBe('1000\n1000\n1000\n');
  }, 180_000);

  it('checks a bug of it through DOCKER_HOST=bwrap:///DIR as on Docker', async () => {
    const artifact = join(dir, 'valid-as-app');
    cpSync(join(FIXTURES, 'valid-two-files'), artifact, { recursive: true });
    const meta = JSON.parse(readFileSync(join(artifact, 'meta.json'), 'utf8'));
    writeFileSync(join(artifact, 'meta.json'), JSON.stringify({ ...meta, image: { tag: AS_APP } }));
    await giveToUser(artifact);
    const checked = await place.cli(['check', artifact, '--json']);
    const report = JSON.parse(checked.stdout) as { valid: boolean; checks: { name: string; verdict: string }[]; FAIL_TO_PASS: string[]; PASS_TO_PASS: string[] };
    expect(report.checks.filter((c) => c.verdict !== 'pass')).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.FAIL_TO_PASS).toHaveLength(6);
    expect(report.PASS_TO_PASS).toHaveLength(77);
    expect(checked.exitCode).toBe(0);
  }, 180_000);

  it('reads and writes files in an image with no tar, within the same place rules and bounds', async () => {
    const run = await place.asUser(`
      const { readOneFile } = await import(${JSON.stringify(join(import.meta.dirname, '../../dist/src/sandbox/tar.js'))});
      const sandbox = await engine.createSandbox({ image: ${JSON.stringify(NO_TAR)}, runId: 'bwrap-no-tar' });
      const tar = await sandbox.exec('command -v tar');
      await sandbox.writeFiles([{ path: 'a/b/run.sh', content: '#!/bin/sh\\necho ran\\n', mode: 0o755 }, { path: 'bin.dat', content: Buffer.from([0, 1, 2, 255, 10, 0]) }]);
      const ran = (await sandbox.run('a/b/run.sh && stat -c %a a/b/run.sh bin.dat')).stdout;
      const binary = [...(await sandbox.readFile('bin.dat'))];
      // A link already at the place is replaced, not written through.
      await sandbox.run('echo target > /tmp/target && ln -s /tmp/target link.txt');
      await sandbox.writeFile('link.txt', 'replaced\\n');
      const link = (await sandbox.run('cat /tmp/target; test -L link.txt || cat link.txt')).stdout;
      // The engine's own copy (what reads fall back to where head or base64 are missing), held to the byte cap.
      const whole = await readOneFile(await sandbox.readArchive('/repo/a/b/run.sh'), 1000, 'run.sh');
      const capped = await readOneFile(await sandbox.readArchive('/repo/a/b/run.sh'), 5, 'run.sh');
      const outside = await sandbox.readFile('/etc/hostname').then(() => 'read', (error) => error.name);
      const linkOut = await sandbox.run('ln -s /etc/passwd out.txt').then(() => sandbox.readFile('out.txt')).then(() => 'read', (error) => error.message);
      await sandbox.remove();
      console.log(JSON.stringify({ tar: tar.exitCode, ran, binary, link, whole: { text: whole.content?.toString(), mode: whole.mode }, capped, outside, linkOut }));
    `);
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(result.tar).not.toBe(0);
    expect(result.ran).toBe('ran\n755\n644\n');
    expect(result.binary).toEqual([0, 1, 2, 255, 10, 0]);
    expect(result.link).toBe('target\nreplaced\n');
    expect(result.whole).toEqual({ text: '#!/bin/sh\necho ran\n', mode: 0o755 });
    expect(result.capped.refused).toMatch(/over the 5-byte limit/);
    expect(result.outside).toBe('read');
    expect(result.linkOut).toMatch(/is a link to \/etc\/passwd, outside \/repo/);
  }, 180_000);
});

describe('doctor on a bwrap node', () => {
  it('lists the packed images, runs a sandbox of one, and finds nothing missing', async () => {
    const text = await place.cli(['doctor']);
    expect(text.stdout).toMatch(/^ok {6}engine e1 at bwrap:\/\/\/.*: bwrap \d+\.\d+\.\d+ \(no engine\), \d+ slot\(s\); 2 packed image\(s\): bugbench-test\/knotcfg-as-app:latest.*, bugbench-test\/knotcfg-no-tar:latest/m);
    expect(text.stdout).toMatch(/^ok {6}engine e1: bwrap [\d.]+, user namespaces allowed, overlay in them works, unsquashfs present/m);
    expect(text.stdout).toMatch(/^ok {6}engine e1 ran a sandbox of bugbench-test\/knotcfg-as-app:latest in \d+ ms$/m);
    expect(text.stdout).not.toMatch(/^MISSING|base image/m);
    expect(text.exitCode, text.stdout).toBe(0);
    const report = JSON.parse((await place.cli(['doctor', '--json'])).stdout);
    expect(report.packedOnly).toBe(true);
    expect(report.engines[0]).toMatchObject({ product: 'bwrap', missing: [], containers: { ok: true } });
    expect(report.engines[0].bwrap.folder.images.map((i: { names: string[]; unpacked: boolean }) => [i.names[0], i.unpacked])).toEqual([[AS_APP, true], [NO_TAR, true]]);
  }, 120_000);

  it('--fix on a bwrap address starts no dockerd, and says what the node lacks with how to get it', async () => {
    const missing = join(dir, 'no-such-folder');
    const fixed = await place.cli(['doctor', '--fix'], { DOCKER_HOST: `bwrap://${missing}` });
    expect(fixed.stderr).toContain('runs packed images with bwrap: no engine to start and no image to build here');
    expect(fixed.stdout).toContain(`MISSING engine e1 needs the folder ${missing} of packed images (mkdir -p ${missing}, then \`bugbench images pack IMAGE --out ${missing}/\` where an engine is)`);
    expect(`${fixed.stdout}${fixed.stderr}`).not.toMatch(/dockerd|apt-get install -y docker/);
    expect(existsSync(join(place.state, 'home', 'logs', 'dockerd.log'))).toBe(false);
    expect(fixed.exitCode).toBe(1);
    // A node without bwrap (a PATH with everything else): the lack and its fix.
    const bin = join(dir, 'bin-without-bwrap');
    mkdirSync(bin);
    for (const tool of ['node', 'unshare', 'nsenter', 'unsquashfs', 'mount', 'sh', 'bash', 'git', 'tar']) symlinkSync(execFileSync('which', [tool], { encoding: 'utf8' }).trim(), join(bin, tool));
    const bare = await place.cli(['doctor'], { PATH: bin });
    expect(bare.stdout).toContain('MISSING engine e1 needs bwrap 0.8.0 or later (sudo apt-get install bubblewrap)');
    expect(bare.exitCode).toBe(1);
  }, 120_000);
});
