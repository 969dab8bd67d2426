/**
 * Reads `cargo test`: libtest prints, for each test binary cargo runs
 * ("Running unittests src/lib.rs (target/debug/deps/calc-…)", "Running
 * tests/it.rs (…)", "Doc-tests calc"), a run framed by "running N tests" and
 * "test result: FAILED. 4 passed; 1 failed; 1 ignored; …", with one line a
 * test in between ("test tests::adds ... ok|FAILED|ignored"). Tests are named
 * by test-ids.ts (`<target>::<name>`, or the bare name); ignored tests are
 * not results.
 *
 * A run is read only when its result lines add up to both its "running N
 * tests" line and its "test result" line, and every run that starts ends; so
 * what a failing test printed (libtest shows it after the results) cannot pose
 * as a result, and a binary that crashed, a log cut short or output mangled by
 * --nocapture leaves the log unread, with the reason. A log where cargo could
 * not build the tests ("error: could not compile …") shows no tests.
 *
 * A failing test's detail is the "---- name stdout ----" section libtest
 * prints for it before the run's "test result" line (its panic message and
 * values).
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { cargoNames, type CargoTarget } from './test-ids.js';
import { ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const CARGO_READER = 'cargo test';

const RUNNING_BINARY = /^\s*Running (.+)$/;
const DOC_TESTS = /^\s*Doc-tests (\S+)$/;
const START = /^running (\d+) tests?$/;
const RESULT = /^test (.+) \.\.\. (ok|FAILED|ignored)(?:, .*)?$/;
const SUMMARY = /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out(?:;.*)?$/;
const NOT_BUILT = /^error: could not compile `[^`]+`/;
const SECTION = /^---- (.+) stdout ----$/;
const SHOULD_PANIC = / - should panic(?: with .*)?$/;

/** The binary and source of a "Running …" line: "unittests src/lib.rs (target/debug/deps/calc-0123abcd)". */
export function cargoTarget(text: string): CargoTarget {
  const framed = /^(?:unittests\s*)?(.*?)\s*\(([^()]+)\)$/.exec(text.trim());
  const path = framed ? framed[2]! : text.trim();
  const file = path.split(/[\\/]/).pop() ?? path;
  const binary = file.replace(/\.exe$/, '').replace(/-[0-9a-f]{8,}$/, '');
  const source = framed?.[1] ? framed[1] : undefined;
  return source ? { binary, source } : { binary };
}

interface Run {
  target?: CargoTarget;
  expected: number;
  seen: Map<string, 'ok' | 'FAILED' | 'ignored'>;
  /** The output sections of failed tests, by name, and the one being read. */
  printed: Map<string, DetailLines>;
  section?: DetailLines;
}

function label(target: CargoTarget | undefined): string {
  if (!target) return 'a test binary';
  return target.source ? `${target.binary} (${target.source})` : target.binary;
}

export function cargoTestReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let seen = false;
  let target: CargoTarget | undefined;
  let run: Run | undefined;
  let problem: string | undefined;
  const note = (why: string) => {
    problem ??= why;
  };

  const namesOf = (r: Run, name: string) => {
    return cargoNames(r.target, name.replace(SHOULD_PANIC, ''), name);
  };

  const close = (counts: RegExpExecArray) => {
    const r = run!;
    run = undefined;
    const tally = { ok: 0, FAILED: 0, ignored: 0 };
    for (const word of r.seen.values()) tally[word]++;
    const [passed, failed, ignored] = [Number(counts[2]), Number(counts[3]), Number(counts[4])];
    if (r.seen.size !== r.expected || tally.ok !== passed || tally.FAILED !== failed || tally.ignored !== ignored) {
      note(
        `the tests of ${label(r.target)} show ${tally.ok} passed, ${tally.FAILED} failed, ${tally.ignored} ignored where libtest counted ` +
          `${passed}, ${failed}, ${ignored} of ${r.expected} (run them without --nocapture or --quiet so that each result keeps a line of its own)`,
      );
      // The results are not read, but each failure's own section still says what went wrong.
      for (const [name, lines] of r.printed) failures.add(namesOf(r, name), lines.lines);
      return;
    }
    for (const [name, word] of r.seen) {
      if (word === 'ignored') continue;
      const names = namesOf(r, name);
      results.add(names, word === 'ok' ? 'passed' : 'failed');
      if (word === 'FAILED') failures.add(names, (r.printed.get(name) ?? r.printed.get(name.replace(SHOULD_PANIC, '')))?.lines ?? []);
    }
  };

  return {
    line(text) {
      const start = START.exec(text);
      if (start) {
        seen = true;
        if (run) note(`a test run of ${label(run.target)} started before the last one ended`);
        run = { target, expected: Number(start[1]), seen: new Map(), printed: new Map() };
        target = undefined;
        return;
      }
      const summary = SUMMARY.exec(text);
      if (summary) {
        seen = true;
        if (run) close(summary);
        else note('a "test result" line outside any test run (a test may have printed it)');
        return;
      }
      if (run) {
        const section = SECTION.exec(text);
        if (section) {
          run.section = new DetailLines();
          run.printed.set(section[1]!, run.section);
          return;
        }
        if (text === 'failures:') run.section = undefined;
        const result = RESULT.exec(text);
        if (!result) {
          run.section?.push(text);
          return;
        }
        if (run.seen.has(result[1]!)) note(`test ${result[1]} of ${label(run.target)} has two results`);
        else run.seen.set(result[1]!, result[2] as 'ok' | 'FAILED' | 'ignored');
        return;
      }
      const binary = RUNNING_BINARY.exec(text);
      const doc = binary ? undefined : DOC_TESTS.exec(text);
      if (binary) target = cargoTarget(binary[1]!);
      else if (doc) target = { binary: doc[1]!, source: 'doc-tests' };
      else if (NOT_BUILT.test(text)) seen = true;
    },
    finish(): LogReading | undefined {
      if (!seen) return undefined;
      if (run) note(`the test run of ${label(run.target)} did not finish (its test binary stopped or the log was cut short)`);
      if (problem) return { reader: CARGO_READER, why: problem };
      return results.reading(CARGO_READER);
    },
    failures: () => failures.record(),
  };
}
