/** Shared by the log reader tests: the captured logs, and feeding a log in pieces. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogReaders, NameIndex, type LogReading } from '../../../src/bugs/log-readers/index.js';
import { PACKAGE_ROOT } from '../../../src/paths.js';

/** A log captured from a real run (see the README beside it). */
export const fixtureLog = (format: string, name: string): string => readFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'logs', format, name), 'utf8');

/** Reads a log fed in pieces of `size` characters, as it streams from a container. */
export function readInPieces(text: string, size: number): LogReading | undefined {
  const readers = new LogReaders();
  for (let i = 0; i < text.length; i += size) readers.push(text.slice(i, i + size));
  return readers.finish();
}

/** The log up to (not including) the first line that contains `marker`. */
export function cutBefore(text: string, marker: string): string {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`no ${marker} in the log`);
  return text.slice(0, text.lastIndexOf('\n', at) + 1);
}

/** The test of `reading` each name stands for (log-readers/name-match.ts): one id, or the ids it could mean. */
export function resolveNames(reading: LogReading | undefined, names: string[]): Record<string, string | string[]> {
  const index = new NameIndex();
  for (const id of Object.keys({ ...reading?.results, ...reading?.optional })) index.add(id, reading?.parts?.[id]);
  return Object.fromEntries(names.map((name) => {
    const ids = index.resolve(name);
    return [name, ids.length === 1 ? ids[0]! : ids.sort()];
  }));
}
