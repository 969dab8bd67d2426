/**
 * Reads `go test -json` (test2json events, one JSON object a line) and
 * `go test -v` text ("=== RUN   TestA", "--- FAIL: TestA/sub (0.00s)" indented
 * by depth, then "ok  \tpkg\t0.01s" or "FAIL\tpkg\t0.01s" closing each
 * package). Tests are named by test-ids.ts (`<package>/<Test>`, alias the
 * bare test); skipped tests are not results.
 *
 * A result counts only for a test the log shows running and not yet
 * finished, and every package must close; so what a test prints cannot pose
 * as a result unless it prints a whole RUN line too. This matters in -json
 * mode as well: before Go 1.20, test2json made its events out of the same
 * text, so a test that prints "--- FAIL: TestX (0.00s)" produces a "fail"
 * event for TestX. A log is unread (with the reason) when a test has two
 * results, a package says "ok" while one of its tests failed or was still
 * running, a package never closes, or -v was left out (a package closes
 * with no test ever shown running, or result lines come with no run line and
 * no package line at all, as a test binary prints them without -test.v). A test still running when its package
 * fails (a panic, os.Exit, a time-out) is an optional failure: the parser
 * may report it failed or leave it out. A package that does not build shows
 * no tests.
 *
 * What a test prints between its RUN (or CONT/NAME) line and the next such
 * line, or after its result line (a panic, Go before 1.14), is its failure
 * detail when it fails; a test that failed only through its subtests takes
 * theirs.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { goNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const GO_JSON_READER = 'go test -json';
export const GO_VERBOSE_READER = 'go test -v';

type State = 'running' | 'passed' | 'failed' | 'skipped';
type End = 'ok' | 'fail';

const RUN = /^=== RUN\s+(\S+)$/;
const RESULT = /^(\s*)--- (PASS|FAIL|SKIP): (\S+) \((\d+(?:\.\d+)?)s\)$/;
const OK = /^ok\s+(\S+)\s+(?:\(cached\)|\d+(?:\.\d+)?s)(.*)$/;
const FAIL = /^FAIL\s+(\S+)\s+\d+(?:\.\d+)?s$/;
const NOT_BUILT = /^FAIL\s+(\S+) \[(?:build|setup) failed\]$/;
const NO_FILES = /^\?\s+(\S+)\s+\[no test files\]$/;
/** The test whose output follows (Go 1.20 prints NAME where earlier versions print CONT). */
const SWITCH = /^=== (?:CONT|NAME)\s+(\S+)$/;
/** Lines of go test's own that are nobody's output. */
const FRAME = /^(?:=== PAUSE\s|PASS$|FAIL$|exit status \d+$|coverage: )/;
/** A panic's trace starts here: the message above it is the detail. */
const TRACE = /^goroutine \d+ \[/;

const WORD: Record<string, State> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped', pass: 'passed', fail: 'failed', skip: 'skipped' };

/** One run of one package's tests: what each test did, in the order seen. */
class PackageRun {
  readonly tests = new Map<string, State>();
  /** Result lines for tests never shown running: look-alikes printed by a test, or output without -v. */
  unmatched = 0;

  /** What tests did in earlier runs of the same binary (-count=N); the worst counts. */
  private readonly earlier = new Map<string, State>();
  /** What each test printed, and the test printing now. */
  private readonly printed = new Map<string, DetailLines>();
  private current: string | undefined;

  run(test: string): string | undefined {
    const now = this.tests.get(test);
    if (now === 'running') return `test ${test} started twice without finishing`;
    const before = this.earlier.get(test);
    if (now !== undefined && before !== 'failed' && !(before === 'passed' && now === 'skipped')) this.earlier.set(test, now);
    this.tests.set(test, 'running');
    this.current = test;
    return undefined;
  }

  result(test: string, state: State): string | undefined {
    const now = this.tests.get(test);
    if (now === undefined) {
      this.unmatched++;
      return undefined;
    }
    if (now !== 'running') return `test ${test} has two results (a test may have printed one; go test -json on Go 1.20 or later keeps printed lines apart)`;
    this.tests.set(test, state);
    this.current = test;
    return undefined;
  }

  /** A CONT or NAME line: the output that follows is `test`'s. */
  switchTo(test: string): void {
    if (this.tests.has(test)) this.current = test;
  }

  /** A line a test printed: the current one's, or `test`'s when the log names it (-json). */
  print(line: string, test = this.current): void {
    if (test === undefined || FRAME.test(line)) return;
    let lines = this.printed.get(test);
    if (!lines) this.printed.set(test, (lines = new DetailLines(TRACE)));
    lines.push(line);
  }

  /** The failure details of the tests that failed (or were running when their package failed). */
  private addFailures(pkg: string, failures: FailureDetails): void {
    for (const [test, state] of this.tests) {
      if (state !== 'failed' && state !== 'running') continue;
      let lines = this.printed.get(test)?.lines ?? [];
      if (lines.length === 0) {
        const sub = [...this.tests].find(([name, s]) => name.startsWith(`${test}/`) && s === 'failed' && (this.printed.get(name)?.lines.length ?? 0) > 0);
        if (sub) lines = this.printed.get(sub[0])!.lines;
      }
      failures.add(goNames(pkg, test), lines);
    }
  }

  /** Puts the package's results in `into`, or says why they cannot be trusted. */
  close(pkg: string, end: End, verbose: boolean, extra: string, into: ResultSet, failures: FailureDetails): string | undefined {
    this.addFailures(pkg, failures);
    if (verbose && this.tests.size === 0 && (this.unmatched > 0 || (end === 'ok' && !extra.includes('[no tests to run]')))) {
      return `package ${pkg} lists no test it ran (run go test with -v or -json so that every test gets a line)`;
    }
    for (const [test, last] of this.tests) {
      if (end === 'ok' && (last === 'failed' || last === 'running')) return `package ${pkg} says ok but its test ${test} ${last === 'failed' ? 'failed' : 'never finished'}`;
      const before = this.earlier.get(test);
      const state = before === 'failed' || (before === 'passed' && last === 'skipped') ? before : last;
      if (state === 'skipped') continue;
      into.add(goNames(pkg, test), state === 'passed' ? 'passed' : 'failed', state === 'running');
    }
    return undefined;
  }
}

interface GoEvent {
  Action: string;
  Package: string;
  Test?: string;
  Output?: string;
}

function event(line: string): GoEvent | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const e = value as Record<string, unknown>;
    if (typeof e.Action !== 'string' || typeof e.Package !== 'string') return undefined;
    return {
      Action: e.Action,
      Package: e.Package,
      Test: typeof e.Test === 'string' ? e.Test : undefined,
      Output: typeof e.Output === 'string' ? e.Output : undefined,
    };
  } catch {
    return undefined;
  }
}

export function goTestReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  /** -json: the open run of each package, by package (packages interleave). */
  const open = new Map<string, PackageRun>();
  /** -v: the package whose output is being printed; its name comes at its end. */
  let block: PackageRun | undefined;
  let json = false;
  let text = false;
  let seen = false;
  let problem: string | undefined;
  const note = (why: string | undefined) => {
    problem ??= why;
  };

  const onEvent = (e: GoEvent) => {
    json = true;
    let run = open.get(e.Package);
    if (e.Test !== undefined) {
      if (e.Action === 'run') {
        if (!run) open.set(e.Package, (run = new PackageRun()));
        note(run.run(e.Test));
      } else if (run && (e.Action === 'pass' || e.Action === 'fail' || e.Action === 'skip')) {
        note(run.result(e.Test, WORD[e.Action]!));
      } else if (run && e.Action === 'output' && e.Output !== undefined) {
        const line = e.Output.replace(/\r?\n$/, '');
        if (!RUN.test(line) && !RESULT.test(line) && !SWITCH.test(line)) run.print(line, e.Test);
      }
      return;
    }
    if (e.Action === 'pass' || e.Action === 'fail') {
      note((run ?? new PackageRun()).close(e.Package, e.Action === 'pass' ? 'ok' : 'fail', false, '', results, failures));
      open.delete(e.Package);
    } else if (e.Action === 'skip') {
      // No test files.
      if (run) note(`package ${e.Package} was skipped after its tests ran`);
      open.delete(e.Package);
    }
  };

  const onText = (line: string) => {
    const run = RUN.exec(line);
    if (run) {
      text = true;
      block ??= new PackageRun();
      note(block.run(run[1]!));
      return;
    }
    const result = RESULT.exec(line);
    if (result) {
      if (!block) {
        text = true;
        block = new PackageRun();
      }
      note(block.result(result[3]!, WORD[result[2]!]!));
      return;
    }
    const ok = OK.exec(line);
    const fail = ok ? undefined : FAIL.exec(line);
    if (ok || fail) {
      // With -json these lines are in output events; here they close the text printed since the last one.
      if (!block && json) return;
      text = true;
      note((block ?? new PackageRun()).close((ok ?? fail)![1]!, ok ? 'ok' : 'fail', true, ok?.[2] ?? '', results, failures));
      block = undefined;
      return;
    }
    // A package without tests to read (printed as text in -json mode too): go test's all the same.
    if (NOT_BUILT.test(line) || NO_FILES.test(line)) {
      seen = true;
      return;
    }
    if (json) return;
    const to = SWITCH.exec(line);
    if (to) block?.switchTo(to[1]!);
    else block?.print(line);
  };

  return {
    line(line) {
      const e = event(line);
      if (e) onEvent(e);
      else onText(line);
    },
    finish(): LogReading | undefined {
      if (!json && !text && !seen) return undefined;
      const reader = json && text ? `${GO_JSON_READER} + ${GO_VERBOSE_READER}` : json ? GO_JSON_READER : text ? GO_VERBOSE_READER : 'go test';
      if (problem) return { reader, why: problem };
      // Result lines with no run line and no package line (a test binary run without -test.v): nothing vouches for them.
      if (block && block.tests.size === 0 && block.unmatched > 0) {
        return { reader, why: `${block.unmatched} result line(s) ("--- PASS: …") with no "=== RUN" line and no line closing their package (run go test with -v or -json so that every test gets a line)` };
      }
      const unfinished = [...open.keys()][0] ?? (block && block.tests.size > 0 ? 'the last package' : undefined);
      if (unfinished) return { reader, why: `${unfinished === 'the last package' ? unfinished : `package ${unfinished}`} never finished (the log has no line closing it)` };
      return results.reading(reader);
    },
    failures: () => failures.record(),
  };
}
