/**
 * Reads TAP (13 and 14, subtests included) with the tap-parser package: the
 * output of node's built-in runner (`node --test` when its output is not a
 * terminal on Node 20, or `--test-reporter=tap`) and of other TAP producers.
 * A stream starts at a "TAP version" line and ends after its closing plan and
 * the comments that follow it (node adds its counts there), so the rest of a
 * script's output is not read as TAP. Tests are named by test-ids.ts (the
 * subtest path joined by " > "); skipped tests are not results, "# TODO"
 * tests are expected failures, and node's describe blocks (diagnostics with
 * `type: 'suite'`) are optional results.
 *
 * A stream is read only when tap-parser finds it whole: a plan that matches
 * its test points at every level, no bail-out, and, for node, test and pass
 * counts ("# tests 12", "# pass 6") that match the points. What node's tests
 * print arrives as "# " comments, so it cannot pose as a result. Node 18
 * over several files gives the point of a file that failed as a whole (a
 * timer that throws after its test, an error while loading) the number of
 * the file's place, which a test of another file already has: at the top
 * level of node's stream, point numbers are not held to, but the plan's count
 * and node's own counts are.
 *
 * A failing point's detail comes from its YAML diagnostics: the error or
 * message (node: `name: 'AssertionError'`, `error: …`), expected and actual
 * values, and where it failed.
 */
import type { FinalResults, Parser, Result } from 'tap-parser';
import { lazyRequire } from '../../lazy-require.js';
import { DetailLines, FailureDetails } from './failure-details.js';
import { pathNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const TAP_READER = 'TAP';
export const NODE_TAP_READER = 'TAP (node --test)';

const tapParser = lazyRequire<typeof import('tap-parser')>('tap-parser');

const VERSION = /^TAP version \d+$/;
const ROOT_PLAN = /^1\.\.\d+/;
const NODE_COUNT = /^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/;
/** tap-parser's complaints about point ids, which node 18 gets wrong at the top of a run over several files. */
const NODE_RENUMBERED = /^(?:test point id \d+ appears multiple times|id greater than plan end|id less than plan start)$/;

const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));

/** The detail of a failed point, from its diagnostics (tap-parser reads the YAML). */
export function tapDetail(diag: unknown): string[] {
  if (typeof diag !== 'object' || diag === null) return [];
  const d = diag as Record<string, unknown>;
  const lines = new DetailLines();
  const error = d.error ?? d.message;
  if (error !== undefined) {
    const [first = '', ...rest] = shown(error).split('\n');
    lines.pushAll([typeof d.name === 'string' ? `${d.name}: ${first}` : first, ...rest]);
  }
  for (const key of ['expected', 'actual']) if (key in d) lines.push(`${key}: ${shown(d[key])}`);
  const at = d.at ?? d.location;
  if (at !== undefined) lines.push(`at: ${shown(at)}`);
  return lines.lines;
}

/** One TAP stream, from its version line to its end. */
class Stream {
  private readonly parser: Parser = new (tapParser().Parser)();
  /** Points met, with what node counts for them. */
  private tests = 0;
  private passes = 0;
  private readonly nodeCounts = new Map<string, number>();
  node = false;
  problem: string | undefined;
  /** Set once the root plan closed the stream: only comments may follow. */
  trailing = false;
  private points = 0;

  constructor(
    private readonly into: ResultSet,
    private readonly failures: FailureDetails,
  ) {
    this.watch(this.parser, []);
    this.parser.on('comment', (line: string) => {
      const count = NODE_COUNT.exec(line.trimEnd());
      if (count) this.nodeCounts.set(count[1]!, Number(count[2]));
      else if (line.startsWith('# Subtest: ')) this.node = true;
    });
    this.parser.on('complete', (results: FinalResults) => this.check(results));
  }

  private watch(parser: Parser, titles: string[]): void {
    parser.on('assert', (result: Result) => this.take(result, titles));
    parser.on('child', (child: Parser) => {
      this.node ||= child.name !== '';
      this.watch(child, [...titles, child.name]);
      child.on('complete', (results: FinalResults) => this.check(results, [...titles, child.name].join(' > ')));
    });
  }

  private take(result: Result, titles: string[]): void {
    if (titles.length === 0) this.points++;
    const suite = (result.diag as { type?: unknown } | null)?.type === 'suite';
    if (!suite) {
      this.tests++;
      if (result.ok && !result.skip && !result.todo) this.passes++;
    }
    if (result.skip) return;
    const names = pathNames([...titles, result.name]);
    this.into.add(names, result.todo ? 'xfailed' : result.ok ? 'passed' : 'failed', suite);
    if (!result.ok && !result.todo && !suite) this.failures.add(names, tapDetail(result.diag));
  }

  private check(results: FinalResults, where?: string): void {
    const at = where ? ` in the subtests of ${where}` : '';
    if (results.bailout) this.problem ??= `the TAP stream bailed out${at}: ${String(results.bailout)}`;
    const errors = results.failures.map((f) => f.tapError).filter((e): e is string => typeof e === 'string' && e !== '');
    // Node 18 numbers the point of a test file that failed as a whole by the file's place among the files, which
    // another file's test already has: at the top of node's stream only the plan's count and node's own counts hold.
    const renumbered = !where && this.node && errors.length > 0 && errors.every((e) => NODE_RENUMBERED.test(e));
    const broken = renumbered ? undefined : errors[0];
    if (broken) this.problem ??= `the TAP stream is not whole${at}: ${broken}`;
    if (renumbered) {
      const planned = results.plan.end === null || results.plan.start === null ? undefined : results.plan.end - results.plan.start + 1;
      if (planned !== results.count) this.problem ??= `the TAP stream is not whole: its plan counts ${planned ?? 'no'} test points where it shows ${results.count}`;
      if (!this.nodeCounts.has('tests') || !this.nodeCounts.has('pass')) this.problem ??= `the TAP stream is not whole: ${errors[0]}, and node's counts are missing`;
    }
    if (!where && this.node && this.nodeCounts.size > 0) {
      const [tests, pass] = [this.nodeCounts.get('tests'), this.nodeCounts.get('pass')];
      if ((tests !== undefined && tests !== this.tests) || (pass !== undefined && pass !== this.passes)) {
        this.problem ??= `node counted ${tests} tests and ${pass} passed where the TAP stream shows ${this.tests} and ${this.passes}`;
      }
    }
  }

  /** Takes one line; false when the stream has ended before it. */
  line(text: string): boolean {
    if (this.trailing && !text.startsWith('#')) return false;
    this.parser.write(`${text}\n`);
    if (!this.trailing && ROOT_PLAN.test(text) && (this.points > 0 || /^1\.\.0\b/.test(text))) this.trailing = true;
    return true;
  }

  end(): void {
    this.parser.end();
  }
}

export function tapReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let stream: Stream | undefined;
  let streams = 0;
  let node = false;
  let problem: string | undefined;
  const close = () => {
    if (!stream) return;
    stream.end();
    node ||= stream.node;
    problem ??= stream.problem;
    stream = undefined;
  };

  return {
    line(text) {
      if (VERSION.test(text)) {
        close();
        streams++;
        stream = new Stream(results, failures);
      }
      if (stream && !stream.line(text)) close();
    },
    finish(): LogReading | undefined {
      close();
      if (streams === 0) return undefined;
      const reader = node ? NODE_TAP_READER : TAP_READER;
      return problem ? { reader, why: problem } : results.reading(reader);
    },
    failures: () => failures.record(),
  };
}
