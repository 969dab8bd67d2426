/**
 * Unpacked images do not pile up on a node: a version whose packed file
 * changed or went is removed before the next unpack once nothing uses it,
 * and when the disk lacks room the least recently used go first; an image a
 * sandbox's record names, or one asked for recently, always stays.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxDir, writeRecord } from '../../../../src/sandbox/bwrap/state.js';
import { lowerLayer, makeRoom, RECENT_USE_MS, SPARE_BYTES, unpackedImages } from '../../../../src/sandbox/bwrap/unpacked.js';

const dir = mkdtempSync(join(tmpdir(), 'bb-bwrap-evict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Packs a one-file tree to `file` (again: a new version of it). */
async function pack(file: string, text: string): Promise<void> {
  const tree = mkdtempSync(join(dir, 'tree-'));
  writeFileSync(join(tree, '.bugbench-image.json'), '{}\n');
  writeFileSync(join(tree, 'hello.txt'), text);
  await execa('mksquashfs', [tree, file, '-noappend', '-quiet', '-no-progress']);
}

/** As if nothing had asked for the unpacked image for `ms`. */
function age(lower: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(lower, then, then);
  utimesSync(`${lower}.source.json`, then, then);
}

const keys = (root: string) => readdirSync(join(root, 'images')).filter((name) => /^[0-9a-f]{16}$/.test(name)).sort();
const key = (lower: string) => lower.split('/').pop()!;

describe('unpacked images', () => {
  it('go when their file was packed again or removed and nothing used them for a while; one a sandbox record names stays', async () => {
    const root = join(dir, 'stale');
    const [a, b, c] = ['a', 'b', 'c'].map((name) => join(dir, `${name}.sqsh`));
    await pack(a!, 'a1\n');
    await pack(b!, 'b1\n');
    await pack(c!, 'c1\n');
    const a1 = await lowerLayer(root, a!);
    const b1 = await lowerLayer(root, b!);
    const c1 = await lowerLayer(root, c!);
    // b1 is what a sandbox (of a process gone or not) is an overlay of.
    mkdirSync(sandboxDir(root, 'sb1'), { recursive: true });
    await writeRecord(root, { id: 'sb1', image: 'b', labels: {}, lower: b1 });
    await pack(a!, 'a2, longer\n');
    await pack(b!, 'b2, longer\n');
    rmSync(c!);
    for (const lower of [a1, b1, c1]) age(lower, RECENT_USE_MS + 60_000);
    // Asked for recently: stays although its file went.
    const d = join(dir, 'd.sqsh');
    await pack(d, 'd1\n');
    const d1 = await lowerLayer(root, d);
    rmSync(d);

    const a2 = await lowerLayer(root, a!);
    expect(keys(root)).toEqual([a2, b1, d1].map(key).sort());
    expect(existsSync(`${a1}.source.json`)).toBe(false);
    expect(existsSync(`${c1}.source.json`)).toBe(false);
    expect((await unpackedImages(root)).filter((image) => image.stale).map((image) => image.lower).sort()).toEqual([b1, d1].sort());
  });

  it('under a full disk go least recently used first, only until there is room', async () => {
    const root = join(dir, 'full');
    const files = ['x', 'y', 'z'].map((name) => join(dir, `${name}.sqsh`));
    for (const file of files) await pack(file, `${file}\n`);
    const [x, y, z] = await Promise.all(files.map((file) => lowerLayer(root, file)));
    age(x!, RECENT_USE_MS + 3 * 3_600_000);
    age(y!, RECENT_USE_MS + 3_600_000);
    age(z!, RECENT_USE_MS + 2 * 3_600_000);
    // The disk has room once one image went.
    let asked = 0;
    const free = async () => (asked++ === 0 ? 0 : 10 * SPARE_BYTES);
    expect(await makeRoom(root, '', 5 * SPARE_BYTES, free)).toEqual([x]);
    expect(keys(root)).toEqual([y!, z!].map(key).sort());
    // No room however many go: all the unused go, never the one being unpacked.
    expect(await makeRoom(root, y!, 5 * SPARE_BYTES, async () => 0)).toEqual([z]);
    expect(keys(root)).toEqual([key(y!)]);
  });

  it('are unpacked once for two asking at once, again when asked for after another process removed them, and what a dead remover left goes', async () => {
    const root = join(dir, 'again');
    const file = join(dir, 'again.sqsh');
    await pack(file, 'again\n');
    // Two lanes of one check ask at once: one unpack, one note.
    const [lower, same] = await Promise.all([lowerLayer(root, file), lowerLayer(root, file)]);
    expect(same).toBe(lower);
    expect(readdirSync(join(root, 'images')).sort()).toEqual([key(lower!), `${key(lower!)}.source.json`]);
    rmSync(lower!, { recursive: true });
    expect(await lowerLayer(root, file)).toBe(lower);
    expect(existsSync(join(lower!, 'hello.txt'))).toBe(true);
    mkdirSync(`${lower}.999999999.removing/etc`, { recursive: true });
    await unpackedImages(root);
    expect(existsSync(`${lower}.999999999.removing`)).toBe(false);
  });
});
