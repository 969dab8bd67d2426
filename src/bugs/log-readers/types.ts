/** What a log reader makes of a test log: bugbench's own reading, to hold the agent's parser to. */

/** A test's result as the log shows it. `xfailed`: an expected failure (pytest's XFAIL, TAP's "not ok … # TODO"). */
export type LogOutcome = 'passed' | 'failed' | 'xfailed';

/** One component of a test's name, as a reader knows it. */
export interface NamePart {
  /** The ways it may be written: "test_a.py" or "test_a", "adds()" or "adds". */
  forms: string[];
  /**
   * "scope" (a package's or a path's element, a test binary) and "group" (a
   * class, a describe block, a module): may be left out when every part
   * before it is ("TestA/sub" for "example.com/m/TestA/sub"); a name that
   * leaves out fewer groups is the closer one. "any": may be left out
   * anywhere (cargo's source file). Otherwise it is always written (the test
   * and its subtests).
   */
  drop?: 'scope' | 'group' | 'any';
}

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
   * The components of each test's name, by id, where the reader knows them
   * (package or file, suite or class, test, subtest): a parser may name the
   * test by them joined in any of the usual ways (name-match.ts). A test
   * without them goes by its id alone. The rules that make them live in
   * test-ids.ts.
   */
  parts?: Record<string, NamePart[]>;
  /**
   * Passing tests the log counts but does not name (Surefire's brief console,
   * jest without --verbose): the parser's passes that match no name are taken
   * on count, and there must be exactly this many. `why` says what the reader
   * could not see and how to make the log name every test.
   */
  unnamed?: { passed: number; why: string };
  /** Why the results cannot be read in full. */
  why?: string;
  /**
   * The reader knows the format but it never names every test (a progress
   * line of dots): when another reader reads the same log in full (a JUnit
   * report printed after the run), that reading stands and this one is
   * dropped; alone, its `why` leaves the log unread.
   */
  namesOnlyFailures?: boolean;
}

/** Reads one format, a line at a time. */
export interface LogReader {
  /** Takes one line of the log, without its line ending. */
  line(text: string): void;
  /** The reading, or undefined when the log is not in this reader's format. */
  finish(): LogReading | undefined;
  /**
   * After finish: what each failing test printed about its failure, by id
   * (failure-details.ts), where the format has it. Given even when the
   * results cannot be read in full.
   */
  failures?(): ReadonlyMap<string, FailureDetail>;
}

/** What a failing test printed, with the components of its name (test-ids.ts). */
export interface FailureDetail {
  parts?: NamePart[];
  lines: string[];
}
