/**
 * The end of a job's output file. Engines that write the output to a file
 * (slurm on the same machine or a shared filesystem, local) read it here.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { JobLogsUnavailableError } from '../errors.js';
import { DEFAULT_TAIL_BYTES, type JobLogs } from './types.js';

/**
 * Pure: the text of a tail read from `start`; a cut first line is dropped so
 * the text starts at a line. A window that holds no whole line (one line
 * longer than the tail) keeps what it has of that line, marked as cut with
 * "…", rather than showing nothing.
 */
export function tailText(bytes: Buffer, cut: boolean): string {
  if (!cut) return bytes.toString('utf8');
  const newline = bytes.indexOf(0x0a);
  if (newline < 0 || newline === bytes.length - 1) return `…${bytes.toString('utf8')}`;
  return bytes.subarray(newline + 1).toString('utf8');
}

/**
 * Reads the last `tailBytes` of `path`. A file not written yet reads as empty;
 * a file whose folder is not on this machine is an error that says so.
 */
export function readLogTail(path: string, tailBytes = DEFAULT_TAIL_BYTES): JobLogs {
  if (!existsSync(path)) {
    if (!existsSync(dirname(path))) {
      throw new JobLogsUnavailableError(
        `the job writes its output to ${path}, which is not on this machine; logs can be read where the cluster's filesystem is shared with bugbench`,
      );
    }
    return { text: '', truncated: false, source: path };
  }
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, Math.max(0, tailBytes));
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    const cut = size > length;
    return { text: tailText(buffer.subarray(0, read), cut), truncated: cut, source: path };
  } finally {
    closeSync(fd);
  }
}
