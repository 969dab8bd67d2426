/**
 * bugbench's own readers of test logs, in one place. Each knows one format;
 * a log is read by the first reader that recognises it. To support another
 * test runner, add a reader here (see pytest-summary.ts for the shape).
 */
import { LineSplitter } from './lines.js';
import { pytestSummaryReader } from './pytest-summary.js';
import type { LogReader, LogReading } from './types.js';

export type { LogOutcome, LogReader, LogReading } from './types.js';
export { PYTEST_READER } from './pytest-summary.js';

export const READERS: (() => LogReader)[] = [pytestSummaryReader];

/** Every reader at once over a log that arrives in pieces; memory stays bounded by one line and the results. */
export class LogReaders {
  private readonly readers = READERS.map((make) => make());
  private readonly splitter = new LineSplitter((line) => {
    for (const reader of this.readers) reader.line(line);
  });

  push(text: string): void {
    this.splitter.push(text);
  }

  /** The first reader's reading that knew the format, or undefined when none did. */
  finish(): LogReading | undefined {
    this.splitter.end();
    for (const reader of this.readers) {
      const reading = reader.finish();
      if (reading) return reading;
    }
    return undefined;
  }
}

/** Reads a whole log held in memory (tests, small logs). */
export function readLog(text: string): LogReading | undefined {
  const readers = new LogReaders();
  readers.push(text);
  return readers.finish();
}
