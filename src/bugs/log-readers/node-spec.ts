/**
 * Reads node's spec reporter (`node --test --test-reporter=spec`, and node's
 * default on a terminal): results two spaces a level ("✔ adds (0.9ms)", "✖
 * throws (0.2ms)", "﹣ skipped one (0.1ms) # reason", "✖ todo one (0.3ms) #
 * TODO"); a describe block or a test with subtests opens with "▶ math" and
 * closes with its own result line at the same depth; then node's counts ("ℹ
 * tests 12", "ℹ suites 2", "ℹ pass 6", "ℹ fail 4", …) and a list of the failing
 * tests again, which is not read. Tests are named by test-ids.ts (titles
 * joined by " > ", no file); skipped tests are not results, TODO tests are
 * expected failures, and blocks are optional results, since the spec output
 * does not tell a describe block from a test with subtests.
 *
 * The log is read only when every block closes under its own title and the
 * lines add up to node's counts. Node prints what tests log among the results:
 * a printed line that looks like a result breaks the counts and leaves the log
 * unread.
 *
 * A failed test's detail is the lines under its "✖" line, indented deeper
 * (the error and its values; stack frames and the error object's bookkeeping
 * left out).
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { pathNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const NODE_SPEC_READER = 'node --test (spec reporter)';

const OPEN = /^( *)▶ (.*)$/;
const RESULT = /^( *)(✔|✖|﹣) (.*?) \(\d+(?:\.\d+)?ms\)(?: # (.*))?$/;
/** The error object's own fields that say nothing about the failure. */
const BOOKKEEPING = /^(?:[{}]|generatedMessage: .*|code: .*|operator: .*)$/;
const COUNT = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;

export function nodeSpecReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  /** The failed test whose error may follow, indented deeper than its result line. */
  let failed: { names: ReturnType<typeof pathNames>; indent: number; lines: DetailLines } | undefined;
  const endFailed = () => {
    if (failed) failures.add(failed.names, failed.lines.lines);
    failed = undefined;
  };
  /** The open blocks, outermost first, with their depth. */
  const blocks: { title: string; depth: number }[] = [];
  const tally = { leaves: 0, groups: 0, leafPass: 0, groupPass: 0, leafFail: 0, groupFail: 0, skipped: 0, todo: 0 };
  const counts = new Map<string, number>();
  let done = false;
  let problem: string | undefined;

  const result = (indent: number, mark: string, title: string, directive: string | undefined) => {
    const depth = indent / 2;
    const top = blocks[blocks.length - 1];
    const closes = top !== undefined && top.depth === depth && top.title === title;
    if (closes) blocks.pop();
    else if (depth !== blocks.length) problem ??= `node's result line for "${title}" is not where its block puts it (a test may have printed it)`;
    const titles = [...blocks.map((b) => b.title), title];
    const todo = directive !== undefined && /^TODO\b/.test(directive);
    if (closes) {
      tally.groups++;
      if (mark === '✔') tally.groupPass++;
      else if (mark === '✖') tally.groupFail++;
    } else {
      tally.leaves++;
      if (mark === '﹣') tally.skipped++;
      else if (todo) tally.todo++;
      else if (mark === '✔') tally.leafPass++;
      else tally.leafFail++;
    }
    if (mark === '﹣') return;
    results.add(pathNames(titles), todo ? 'xfailed' : mark === '✔' ? 'passed' : 'failed', closes);
    if (mark === '✖' && !todo && !closes) failed = { names: pathNames(titles), indent, lines: new DetailLines() };
  };

  const check = (): string | undefined => {
    const n = (key: string) => counts.get(key) ?? 0;
    if (blocks.length > 0) return `node's block "${blocks[blocks.length - 1]!.title}" never closes`;
    if (n('tests') + n('suites') !== tally.leaves + tally.groups) return `node counted ${n('tests')} tests and ${n('suites')} suites where its lines show ${tally.leaves + tally.groups}`;
    if (n('skipped') !== tally.skipped || n('todo') !== tally.todo) return `node counted ${n('skipped')} skipped and ${n('todo')} todo where its lines show ${tally.skipped} and ${tally.todo}`;
    const pass = n('pass');
    const fail = n('fail') + n('cancelled');
    if (pass < tally.leafPass || pass > tally.leafPass + tally.groupPass || fail < tally.leafFail || fail > tally.leafFail + tally.groupFail) {
      return `node counted ${pass} passed and ${fail} failed where its lines show ${tally.leafPass} and ${tally.leafFail} outside blocks`;
    }
    return undefined;
  };

  return {
    line(text) {
      const count = COUNT.exec(text);
      if (count) {
        if (counts.has(count[1]!)) problem ??= 'the log holds more than one run of node --test';
        counts.set(count[1]!, Number(count[2]));
        done = true;
        return;
      }
      if (failed && (text.trim() === '' || text.length - text.trimStart().length > failed.indent)) {
        if (!BOOKKEEPING.test(text.trim())) failed.lines.push(text);
        return;
      }
      endFailed();
      if (done) return; // The failing tests again, and what follows.
      const open = OPEN.exec(text);
      if (open) {
        const depth = open[1]!.length / 2;
        if (depth !== blocks.length) problem ??= `node's block "${open[2]}" opens where its parent does not put it (a test may have printed it)`;
        blocks.push({ title: open[2]!, depth });
        return;
      }
      const res = RESULT.exec(text);
      if (res) result(res[1]!.length, res[2]!, res[3]!, res[4]);
    },
    finish(): LogReading | undefined {
      endFailed();
      if (!counts.has('tests')) return undefined;
      problem ??= check();
      return problem ? { reader: NODE_SPEC_READER, why: problem } : results.reading(NODE_SPEC_READER);
    },
    failures: () => failures.record(),
  };
}
