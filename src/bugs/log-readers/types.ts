/** What a log reader makes of a test log: bugbench's own reading, to hold the agent's parser to. */

/** A test's result as the log shows it. `xfailed`: an expected failure (pytest's XFAIL, TAP's "not ok … # TODO"). */
export type LogOutcome = 'passed' | 'failed' | 'xfailed';

export interface LogReading {
  /** The reader that knew the format, e.g. "pytest -rA"; readings of one log by several readers are joined with " + ". */
  reader: string;
  /** Every test the log shows a result for; undefined when the log is in this format but cannot be read in full. */
  results?: Record<string, LogOutcome>;
  /**
   * Results a parser may leave out, but must not contradict: groups that some
   * runners list beside their tests (node's describe blocks).
   */
  optional?: Record<string, LogOutcome>;
  /**
   * Other names a parser may give a test of `results` or `optional`, by id
   * (a Go test without its package, a Rust test without its target). The rules
   * that make them live in test-ids.ts.
   */
  aliases?: Record<string, string[]>;
  /**
   * Passing tests the log counts but does not name (Surefire's brief console,
   * jest without --verbose): the parser's passes that match no name are taken
   * on count, and there must be exactly this many. `why` says what the reader
   * could not see and how to make the log name every test.
   */
  unnamed?: { passed: number; why: string };
  /** Why the results cannot be read in full. */
  why?: string;
}

/** Reads one format, a line at a time. */
export interface LogReader {
  /** Takes one line of the log, without its line ending. */
  line(text: string): void;
  /** The reading, or undefined when the log is not in this reader's format. */
  finish(): LogReading | undefined;
  /**
   * After finish: what each failing test printed about its failure, by each
   * name of the test (failure-details.ts), where the format has it. Given
   * even when the results cannot be read in full.
   */
  failures?(): ReadonlyMap<string, string[]>;
}
