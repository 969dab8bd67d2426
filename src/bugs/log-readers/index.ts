/**
 * bugbench's own readers of test logs, in one place. Each knows one format
 * and claims a log only when it finds that format's own frame in it (pytest's
 * session and summary, go's RUN and package lines, libtest's "running N
 * tests", a TAP version line, a JUnit XML report, …). To support another test
 * runner, add a reader here (see pytest-summary.ts for the shape) and name its
 * tests by the rules of test-ids.ts, giving the components of each name so
 * that a parser may name the test its own way (name-match.ts).
 *
 * Every reader reads every log. When several claim one log (a script that
 * runs go test and then pytest), the log is read as the sum of what they
 * read: the parser must give the tests of both. If any of them cannot read its
 * part in full, the whole log is unverified, with that reader's reason: a
 * partial reading is never trusted.
 *
 * Readers also keep what each failing test printed about its failure, where
 * their format has it (failure-details.ts): bug reports are written from it.
 */
import { LineSplitter } from './lines.js';
import { cargoTestReader } from './cargo-test.js';
import { catch2ConsoleReader } from './catch2-console.js';
import { ctestReader } from './ctest.js';
import { googletestReader } from './googletest.js';
import { goTestReader } from './go-test.js';
import { gradleConsoleReader } from './gradle-console.js';
import { jestVerboseReader } from './jest-verbose.js';
import { junitXmlReader } from './junit-xml.js';
import { minitestReader } from './minitest.js';
import { mochaSpecReader } from './mocha-spec.js';
import { nodeSpecReader } from './node-spec.js';
import { phpunitReader } from './phpunit.js';
import { pytestReader } from './pytest.js';
import { rspecDocReader, rspecJsonReader } from './rspec.js';
import { surefireConsoleReader } from './surefire-console.js';
import { tapReader } from './tap.js';
import { unittestReader } from './unittest.js';
import { vitestVerboseReader } from './vitest-verbose.js';
import { worstOutcome } from './test-ids.js';
import type { FailureDetail, LogOutcome, LogReader, LogReading } from './types.js';

export type { FailureDetail, LogOutcome, LogReader, LogReading, NamePart } from './types.js';
export { NameIndex } from './name-match.js';
export { PYTEST_READER } from './pytest-summary.js';
export { worstOutcome } from './test-ids.js';

export const READERS: (() => LogReader)[] = [
  pytestReader,
  unittestReader,
  goTestReader,
  cargoTestReader,
  tapReader,
  junitXmlReader,
  surefireConsoleReader,
  gradleConsoleReader,
  jestVerboseReader,
  vitestVerboseReader,
  mochaSpecReader,
  nodeSpecReader,
  // The test frameworks before CTest, whose --output-on-failure shows their runs: their failure details are the cleaner.
  googletestReader,
  catch2ConsoleReader,
  ctestReader,
  rspecDocReader,
  rspecJsonReader,
  minitestReader,
  phpunitReader,
];

/** One reading of a log that several readers claimed. */
export function joinReadings(all: LogReading[]): LogReading | undefined {
  // A format that names only failing tests gives way to a whole reading of the same log (its JUnit report).
  const whole = all.filter((r) => !r.namesOnlyFailures);
  const named = whole.length > 0 ? whole : all;
  // A reading that only counts some passes gives way to one that names all of its tests (Surefire's console beside its XML reports).
  const covers = (full: LogReading, part: LogReading) =>
    full !== part && !full.unnamed && full.results !== undefined && Object.keys(part.results!).every((id) => full.results![id] !== undefined || full.optional?.[id] !== undefined);
  const readings = named.filter((r) => !(r.unnamed && r.results && named.some((full) => covers(full, r))));
  if (readings.length <= 1) return readings[0];
  const reader = readings.map((r) => r.reader).join(' + ');
  const unread = readings.find((r) => !r.results);
  if (unread) return { reader, why: `${unread.reader}: ${unread.why ?? 'the log cannot be read in full'}` };
  const joined: Required<Pick<LogReading, 'results' | 'optional' | 'parts'>> = { results: {}, optional: {}, parts: {} };
  const merge = (into: Record<string, LogOutcome>, from: Record<string, LogOutcome> | undefined) => {
    for (const [id, outcome] of Object.entries(from ?? {})) into[id] = into[id] === undefined ? outcome : worstOutcome(into[id]!, outcome);
  };
  for (const reading of readings) {
    merge(joined.results, reading.results);
    merge(joined.optional, reading.optional);
    for (const [id, parts] of Object.entries(reading.parts ?? {})) joined.parts[id] ??= parts;
  }
  for (const id of Object.keys(joined.optional)) {
    if (joined.results[id] !== undefined) {
      joined.results[id] = worstOutcome(joined.results[id]!, joined.optional[id]!);
      delete joined.optional[id];
    }
  }
  const unnamed = readings.filter((r) => r.unnamed);
  const passed = unnamed.reduce((n, r) => n + r.unnamed!.passed, 0);
  const out: LogReading = { reader, ...joined };
  if (passed > 0) out.unnamed = { passed, why: unnamed.map((r) => r.unnamed!.why).join('; ') };
  return out;
}

/** Every reader at once over a log that arrives in pieces; memory stays bounded by one line and the results. */
export class LogReaders {
  private readonly readers = READERS.map((make) => make());
  private readonly splitter = new LineSplitter((line) => {
    for (const reader of this.readers) reader.line(line);
  });

  push(text: string): void {
    this.splitter.push(text);
  }

  /** The reading of every reader that knew the format, joined; undefined when none did. */
  finish(): LogReading | undefined {
    this.splitter.end();
    const readings: LogReading[] = [];
    for (const reader of this.readers) {
      const reading = reader.finish();
      if (reading) readings.push(reading);
    }
    return joinReadings(readings);
  }

  /** After finish: each failing test's details, by id; an id two readers know keeps the first one's. */
  failures(): Map<string, FailureDetail> {
    const out = new Map<string, FailureDetail>();
    for (const reader of this.readers) {
      for (const [id, detail] of reader.failures?.() ?? []) if (!out.has(id)) out.set(id, detail);
    }
    return out;
  }
}

/** Reads a whole log held in memory (tests, small logs). */
export function readLog(text: string): LogReading | undefined {
  const readers = new LogReaders();
  readers.push(text);
  return readers.finish();
}

/** Reads a whole log for its results and its failing tests' details, by test name. */
export function readLogWithFailures(text: string): { reading: LogReading | undefined; failures: Map<string, FailureDetail> } {
  const readers = new LogReaders();
  readers.push(text);
  const reading = readers.finish();
  return { reading, failures: readers.failures() };
}
