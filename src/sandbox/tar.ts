/** Tar archives: how files travel into and out of containers (out of them, one bounded file at a time). */
import { Readable } from 'node:stream';
import tar from 'tar-stream';

export interface FileEntry {
  /** Path inside the archive, without a leading slash. */
  name: string;
  content: Buffer;
  mode?: number;
  /** The owner's ids (default 0, root). */
  uid?: number;
  gid?: number;
  /** A folder entry (content ignored): how new folders get their owner. */
  directory?: boolean;
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
      const owner = { uid: file.uid ?? 0, gid: file.gid ?? 0 };
      if (file.directory) pack.entry({ name: file.name, type: 'directory', mode: file.mode ?? 0o755, mtime: new Date(), ...owner }, (err) => (err ? reject(err) : resolve()));
      else pack.entry({ name: file.name, mode: file.mode ?? 0o644, mtime: new Date(), ...owner }, file.content, (err) => (err ? reject(err) : resolve()));
    });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/**
 * The first entry of a tar stream, which must be the regular file `name`, at
 * most `maxBytes` long. Anything else (a directory, a link, a file past the
 * limit, by its header or by the bytes that arrive) ends the transfer at once:
 * the source is destroyed, so no more of it is read.
 */
export async function readOneFile(
  source: NodeJS.ReadableStream,
  maxBytes: number,
  name: string,
): Promise<{ content: Buffer; mode: number } | { refused: string }> {
  const input = source instanceof Readable ? source : Readable.from(source as AsyncIterable<Buffer>);
  const extract = tar.extract();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { content: Buffer; mode: number } | { refused: string } | Error) => {
      if (settled) return;
      settled = true;
      input.unpipe(extract);
      input.destroy();
      extract.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    extract.on('entry', (header, stream) => {
      if (header.type !== 'file' || header.name !== name) {
        finish({ refused: `is a ${header.type ?? 'special entry'} (${header.name}), not the regular file asked for` });
        return;
      }
      const size = header.size ?? 0;
      if (size > maxBytes) {
        finish({ refused: `is ${size} bytes, over the ${maxBytes}-byte limit of this read` });
        return;
      }
      const parts: Buffer[] = [];
      let total = 0;
      stream.on('data', (data: unknown) => {
        const chunk = data as Buffer;
        total += chunk.length;
        if (total > maxBytes) finish({ refused: `grew past the ${maxBytes}-byte limit of this read while it was read` });
        else parts.push(chunk);
      });
      stream.on('end', () => finish({ content: Buffer.concat(parts), mode: header.mode ?? 0o644 }));
      stream.on('error', (error: Error) => finish(error));
    });
    extract.on('finish', () => finish({ refused: 'vanished before it could be read' }));
    extract.on('error', (error: Error) => finish(error));
    input.on('error', (error: Error) => finish(error));
    input.pipe(extract);
  });
}
