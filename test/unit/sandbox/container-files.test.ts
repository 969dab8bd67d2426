import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { formatBytes, parseInspection, readRefusal, treeOf } from '../../../src/sandbox/container-files.js';
import { readOneFile } from '../../../src/sandbox/tar.js';

const MiB = 1024 * 1024;
const file = (path: string, size = 10, real = path) => ({ path, real, kind: 'file' as const, size });

describe('looking at a path before reading it', () => {
  it('reads what the container says of a path, and what it sent of the file', () => {
    expect(parseInspection('/tmp/a', 'regular file|12|644\n-\n/tmp/a\n')).toEqual({ ...file('/tmp/a', 12), mode: 0o644, content: { sent: false } });
    expect(parseInspection('/tmp/e', 'regular empty file|0|755\n=\n/tmp/e\n')).toMatchObject({ kind: 'file', size: 0, mode: 0o755, content: { sent: true, base64: '' } });
    expect(parseInspection('/tmp/b', 'regular file|3|600\n=YWJj\n/tmp/b\n')).toMatchObject({ mode: 0o600, content: { sent: true, base64: 'YWJj' } });
    expect(parseInspection('/tmp/c', 'regular file|3|644\n!\n/tmp/c\n')).toMatchObject({ content: { sent: 'unable' } });
    expect(parseInspection('/tmp', 'directory|4096|1777\n-\n/tmp\n')).toMatchObject({ kind: 'directory' });
    expect(parseInspection('/repo/z', 'character special file|0|666\n-\n/dev/zero\n')).toMatchObject({ kind: 'character device', real: '/dev/zero' });
    // A real path with a line break in it is the rest of the output.
    expect(parseInspection('/tmp/l', 'regular file|1|644\n-\n/tmp/a\nb\n')).toMatchObject({ real: '/tmp/a\nb' });
    expect(parseInspection('/nope', 'missing\n')).toBeUndefined();
  });

  it('keeps a read in its tree: /repo, or the top folder of the path', () => {
    expect(treeOf('/repo/pkg/a.py', '/repo')).toBe('/repo');
    expect(treeOf('/tmp/artifact/x', '/repo')).toBe('/tmp');
    expect(treeOf('/x', '/repo')).toBe('/x');
  });

  it('refuses folders, devices, kernel files, links out of the tree and big files, saying why', () => {
    expect(readRefusal(file('/repo/a.py'), MiB, '/repo')).toBeUndefined();
    expect(readRefusal(file('/repo/link.py', 10, '/repo/pkg/a.py'), MiB, '/repo')).toBeUndefined();
    expect(readRefusal({ ...file('/tmp/deep'), kind: 'directory' }, MiB, '/repo')).toBe('is a directory, not a regular file');
    expect(readRefusal({ ...file('/repo/z', 0, '/dev/zero'), kind: 'character device' }, MiB, '/repo')).toBe(
      'is a link to /dev/zero, which is in /dev, where the kernel makes files up; copy what you need to a regular file first',
    );
    expect(readRefusal(file('/proc/self/environ', 0), MiB, '/repo')).toMatch(/^is in \/proc/);
    expect(readRefusal(file('/repo/secret', 10, '/etc/passwd'), MiB, '/repo')).toBe('is a link to /etc/passwd, outside /repo; copy the file there instead of linking to it');
    expect(readRefusal(file('/tmp/big', 1_000_000_000), 10 * MiB, '/repo')).toBe('is 953.7 MiB (1000000000 bytes), over the 10 MiB limit of this read');
  });

  it('writes sizes for people', () => {
    expect([formatBytes(512), formatBytes(30_000), formatBytes(10 * MiB), formatBytes(1024 ** 3)]).toEqual(['512 bytes', '29.3 KiB', '10 MiB', '1.0 GiB']);
  });
});

/** A tar stream whose one entry claims `size` bytes and delivers them lazily, counting what was pulled. */
function lazyArchive(name: string, size: number) {
  const pack = tar.pack();
  const pulled = { bytes: 0 };
  const body = new Readable({
    read() {
      const left = size - pulled.bytes;
      if (left <= 0) return void this.push(null);
      const chunk = Buffer.alloc(Math.min(64 * 1024, left));
      pulled.bytes += chunk.length;
      this.push(chunk);
    },
  });
  body.pipe(pack.entry({ name, size }, () => pack.finalize()));
  return { stream: pack as unknown as NodeJS.ReadableStream, pulled };
}

describe('reading one file out of a tar stream', () => {
  it('returns a small file whole', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'a.txt', mode: 0o755 }, 'hello');
    pack.finalize();
    expect(await readOneFile(pack as unknown as NodeJS.ReadableStream, 100, 'a.txt')).toEqual({ content: Buffer.from('hello'), mode: 0o755 });
  });

  it('refuses a file whose header is over the limit without reading its body', async () => {
    const { stream, pulled } = lazyArchive('big', 1024 ** 3);
    const before = process.memoryUsage().rss;
    expect(await readOneFile(stream, 10 * MiB, 'big')).toEqual({ refused: `is ${1024 ** 3} bytes, over the ${10 * MiB}-byte limit of this read` });
    expect(pulled.bytes).toBeLessThan(2 * MiB);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * MiB);
  });

  it('refuses a folder and anything but the file asked for', async () => {
    const folder = tar.pack();
    folder.entry({ name: 'deep', type: 'directory' });
    folder.entry({ name: 'deep/a.txt' }, 'x');
    folder.finalize();
    expect(await readOneFile(folder as unknown as NodeJS.ReadableStream, MiB, 'deep')).toEqual({ refused: 'is a directory (deep), not the regular file asked for' });
    const { stream } = lazyArchive('other', 10);
    expect(await readOneFile(stream, MiB, 'asked')).toEqual({ refused: 'is a file (other), not the regular file asked for' });
  });
});
