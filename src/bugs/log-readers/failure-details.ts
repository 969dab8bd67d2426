/**
 * What a failing test printed about its failure, as a reader finds it in its
 * own format: go's lines between "=== RUN" and "--- FAIL", libtest's "----
 * name stdout ----" section, a TAP point's YAML diagnostics, jest's "●"
 * section, vitest's "→" lines, mocha's numbered failure, node's lines under a
 * "✖", a JUnit <failure>'s text, pytest's summary message and "E" lines. The
 * material a bug report is written from, so it holds the message and the
 * values, not stack frames or code frames, and stays small: at most
 * MAX_DETAIL_LINES lines of at most MAX_DETAIL_CHARS a test.
 */

import type { TestName } from './test-ids.js';
import type { FailureDetail } from './types.js';

export const MAX_DETAIL_LINES = 8;
export const MAX_DETAIL_CHARS = 300;

/** A stack frame of JavaScript or Java ("at Object.<anonymous> (a.js:1:2)"), a code frame ("> 8 |   expect(…)", "11| …", "|  ^"), a location arrow. */
const NOISE = [/^at \S/, /^>?\s*\d+\s*\|/, /^\|/, /^❯ /, /^note: run with `RUST_BACKTRACE=1`/];

/** The lines of one test's failure, kept as they arrive: trimmed, noise and blank lines left out, the first MAX_DETAIL_LINES kept. */
export class DetailLines {
  readonly lines: string[] = [];
  private stopped = false;

  /** `until`: a line that ends the useful part (go's "goroutine 7 [running]:" before its trace). */
  constructor(private readonly until?: RegExp) {}

  push(raw: string): void {
    if (this.stopped || this.lines.length >= MAX_DETAIL_LINES) return;
    const line = raw.trim();
    if (this.until?.test(line)) {
      this.stopped = true;
      return;
    }
    if (line === '' || NOISE.some((re) => re.test(line))) return;
    this.lines.push(line.length > MAX_DETAIL_CHARS ? `${line.slice(0, MAX_DETAIL_CHARS - 1)}…` : line);
  }

  pushAll(raw: Iterable<string>): this {
    for (const line of raw) this.push(line);
    return this;
  }
}

/** The details of a reader's failing tests, by id. */
export class FailureDetails {
  private readonly byId = new Map<string, FailureDetail>();

  /** Keeps `lines` for the test unless it has some already (a test met twice keeps its first failure). */
  add(name: TestName, lines: string[]): void {
    if (lines.length === 0 || this.byId.has(name.id)) return;
    this.byId.set(name.id, { parts: name.parts, lines });
  }

  record(): ReadonlyMap<string, FailureDetail> {
    return this.byId;
  }
}
