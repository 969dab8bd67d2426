/**
 * Why a reader that recognised its runner's log cannot vouch for it: the
 * first reason it found, and whether that reason is only that the format
 * names the failing tests alone (PHPUnit's dots, RSpec's progress,
 * `--gtest_brief`), in which case a whole reading of the same log by another
 * reader (a JUnit report printed after the run) stands in its place.
 */
import type { LogReading } from './types.js';

export class Unreadable {
  private why: string | undefined;
  private onlyFailures = false;

  /** Keeps `why` unless an earlier reason was found. */
  note(why: string): void {
    this.why ??= why;
  }

  /** The format names only the failing tests: said as the reason, unless an earlier one was found. */
  noteOnlyFailures(why: string): void {
    if (this.why === undefined) this.onlyFailures = true;
    this.note(why);
  }

  /** The reading that says why, or undefined when nothing was found. */
  reading(reader: string): LogReading | undefined {
    if (this.why === undefined) return undefined;
    return { reader, why: this.why, ...(this.onlyFailures ? { namesOnlyFailures: true } : {}) };
  }
}
