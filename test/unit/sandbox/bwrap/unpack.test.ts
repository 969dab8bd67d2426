/**
 * A packed image is unpacked once per node and user even when several
 * processes (the tasks of a Slurm array on one node) ask for it at once: the
 * others wait for the first; one whose unpacker died goes on by itself, and
 * a failed unpack leaves nothing.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { lowerLayer } from '../../../../src/sandbox/bwrap/unpacked.js';
import { DIST } from '../../../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'bb-bwrap-unpack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small squashfs file, and an unsquashfs on PATH that notes each call and takes a second. */
async function setUp(name: string): Promise<{ file: string; root: string; calls: string; path: string }> {
  const tree = join(dir, `${name}-tree`);
  mkdirSync(tree);
  writeFileSync(join(tree, '.bugbench-image.json'), '{}\n');
  writeFileSync(join(tree, 'hello.txt'), 'hello\n');
  const file = join(dir, `${name}.sqsh`);
  await execa('mksquashfs', [tree, file, '-noappend', '-quiet', '-no-progress']);
  const bin = join(dir, `${name}-bin`);
  mkdirSync(bin);
  const calls = join(dir, `${name}-calls`);
  writeFileSync(join(bin, 'unsquashfs'), `#!/bin/sh\necho "$$" >> ${calls}\nsleep 1\nexec /usr/bin/unsquashfs "$@"\n`);
  chmodSync(join(bin, 'unsquashfs'), 0o755);
  return { file, root: join(dir, `${name}-state`), calls, path: `${bin}:${process.env.PATH}` };
}

/** A separate process asking for the file's lower layer; prints its path. */
function asker(root: string, file: string, path: string) {
  const script = `const { lowerLayer } = await import(${JSON.stringify(`${DIST}/sandbox/bwrap/unpacked.js`)}); console.log(await lowerLayer(${JSON.stringify(root)}, ${JSON.stringify(file)}));`;
  return execa('node', ['--input-type=module', '-e', script], { env: { PATH: path }, extendEnv: false });
}

describe('unpacking a packed image', () => {
  it('happens once when two processes ask for it at once', async () => {
    const { file, root, calls, path } = await setUp('two');
    const [a, b] = await Promise.all([asker(root, file, path), asker(root, file, path)]);
    expect(a.stdout.trim()).toBe(b.stdout.trim());
    expect(readFileSync(join(a.stdout.trim(), 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('goes on when the process that was unpacking it died', async () => {
    const { file, root, calls, path } = await setUp('dead');
    // The same file's folder name in another state folder (it depends on the file only).
    const key = (await lowerLayer(join(root, 'probe'), file)).split('/').pop()!;
    // The lock folder a first unpacker left, whose process is gone.
    mkdirSync(join(root, 'images', `${key}.unpacking`), { recursive: true });
    writeFileSync(join(root, 'images', `${key}.unpacking`, 'holder.json'), JSON.stringify({ host: hostname(), pid: 999_999_999, start: '1' }));
    // and the half it had unpacked.
    mkdirSync(join(root, 'images', `${key}.999999999.tmp`, 'etc'), { recursive: true });
    const lower = await asker(root, file, path);
    expect(readFileSync(join(lower.stdout.trim(), 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(readdirSync(join(root, 'images'))).toEqual([key, `${key}.source.json`]);
  });

  it('reads a holder file still being written as a holder not yet known, and takes over one that never said', async () => {
    const { file, root, calls, path } = await setUp('half');
    const key = (await lowerLayer(join(root, 'probe'), file)).split('/').pop()!;
    const lock = join(root, 'images', `${key}.unpacking`);
    mkdirSync(lock, { recursive: true });
    // The holder made the folder and had opened its file, but not written it yet, 20 s ago.
    writeFileSync(join(lock, 'holder.json'), '');
    const past = new Date(Date.now() - 20_000);
    utimesSync(lock, past, past);
    const lower = await asker(root, file, path);
    expect(readFileSync(join(lower.stdout.trim(), 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('leaves nothing behind when unsquashfs fails half-way', async () => {
    const { file, root } = await setUp('failing');
    const bin = join(dir, 'failing-bin');
    // Writes part of the tree, then fails as on a file cut short.
    writeFileSync(join(bin, 'unsquashfs'), '#!/bin/sh\nwhile [ "$1" != -d ]; do shift; done\nmkdir -p "$2/etc" && echo part > "$2/etc/part"\necho "FATAL ERROR: read failed" >&2\nexit 1\n');
    const failed = await asker(root, file, `${bin}:${process.env.PATH}`).catch((error: { stderr: string }) => error);
    expect((failed as { stderr: string }).stderr).toContain('unsquashfs failed: FATAL ERROR: read failed');
    expect(readdirSync(join(root, 'images'))).toEqual([]);
  });
});
