/** Tar archives in memory: how files travel into and out of containers. */
import { Readable } from 'node:stream';
import tar from 'tar-stream';

export interface FileEntry {
  /** Path inside the archive, without a leading slash. */
  name: string;
  content: Buffer;
  mode?: number;
}

export async function packFiles(files: FileEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const file of files) {
    await new Promise<void>((resolve, reject) => {
      pack.entry({ name: file.name, mode: file.mode ?? 0o644, mtime: new Date() }, file.content, (err) =>
        err ? reject(err) : resolve(),
      );
    });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** Reads every regular file of a tar stream into memory, with its mode, keyed by its name in the archive. */
export async function unpackEntries(source: NodeJS.ReadableStream): Promise<Map<string, { content: Buffer; mode: number }>> {
  const extract = tar.extract();
  const files = new Map<string, { content: Buffer; mode: number }>();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const parts: Buffer[] = [];
      stream.on('data', (chunk: unknown) => parts.push(chunk as Buffer));
      stream.on('end', () => {
        if (header.type === 'file') files.set(header.name, { content: Buffer.concat(parts), mode: header.mode ?? 0o644 });
        next();
      });
      stream.resume();
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  (source instanceof Readable ? source : Readable.from(source as AsyncIterable<Buffer>)).pipe(extract);
  await done;
  return files;
}
