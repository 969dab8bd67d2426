/**
 * Reads RSpec: its documentation format (`--format documentation`), its JSON
 * format (`--format json`, one line of JSON), and recognises its progress
 * format ("..F*"), which names only the examples that fail, to say so.
 *
 * An example is named by its full description, as RSpec builds it: the
 * titles of its groups and its own, joined by a space except before a title
 * that starts with "#", "." or "::" ("Ledger#balance sums every entry");
 * aliases the titles joined by " > ". Pending examples are not results.
 *
 * The documentation format is a tree by indentation (two spaces a level),
 * ended by "Finished in …" and "9 examples, 1 failure(, 2 pending)". What a
 * spec prints lands in the tree: a line is taken as a group only when the
 * next line is one level deeper, and one that jumps levels is output. The
 * reading is trusted only when it adds up to the summary's counts and its
 * failures are exactly the "Failed examples:" list RSpec prints after.
 *
 * A failing example's detail is its numbered entry under "Failures:".
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { ResultSet, rspecNames } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';
import { Unreadable } from './unreadable.js';

export const RSPEC_READER = 'RSpec';
export const RSPEC_JSON_READER = 'RSpec JSON';

const SUMMARY = /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?$/;
const FINISHED = /^Finished in \S+ seconds?/;
const FAILED_MARK = / \(FAILED - (\d+)\)$/;
const PENDING_MARK = / \(PENDING: .*\)$/;
const FAILED_EXAMPLE = /^rspec \S+ # (.+)$/;
const FAILURE_HEAD = /^ {2}(\d+)\) (.+)$/;
const PROGRESS = /^[.F*]+$/;

/** RSpec's full description: titles joined by a space, but none before "#", "." or "::". */
export function fullDescription(titles: string[]): string {
  return titles.reduce((full, title) => (full === '' ? title : /^(#|\.|::)/.test(title) ? `${full}${title}` : `${full} ${title}`), '');
}

const namesOf = (titles: string[]) => rspecNames(fullDescription(titles), titles);

interface Line {
  indent: number;
  title: string;
}

export function rspecDocReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  /** The lines of the current run before its "Failures:" or "Finished in", as they may be tree lines. */
  let tree: Line[] = [];
  let inTree = true;
  let failedList = new Set<string>();
  let inFailedList = false;
  let details = new Map<string, DetailLines>();
  let detail: DetailLines | undefined;
  let finished = false;
  let progress = false;
  /** The counts of a run whose summary was read, until its list of failed examples is over. */
  let counts: [number, number, number] | undefined;
  let seen = false;
  const problem = new Unreadable();
  const note = (why: string) => problem.note(why);
  const noteOnlyFailures = (why: string) => problem.noteOnlyFailures(why);

  const close = (examples: number, failed: number, pending: number) => {
    seen = true;
    const read: { outcome: 'passed' | 'failed' | 'pending'; titles: string[] }[] = [];
    const stack: Line[] = [];
    for (let i = 0; i < tree.length; i++) {
      const line = tree[i]!;
      if (!fits(tree, i)) continue;
      // The group it sits in: the deepest on the stack above it, which must be one level up.
      let depth = stack.length;
      while (depth > 0 && stack[depth - 1]!.indent >= line.indent) depth--;
      const parent = stack[depth - 1];
      if (parent ? line.indent !== parent.indent + 2 : line.indent !== 0) continue;
      stack.length = depth;
      const next = nextFitting(tree, i);
      if (next !== undefined && next.indent === line.indent + 2) {
        stack.push(line);
        continue;
      }
      // A line at the root with nothing under it is output: an example lives in a group.
      if (line.indent === 0) continue;
      const outcome = FAILED_MARK.test(line.title) ? 'failed' : PENDING_MARK.test(line.title) ? 'pending' : 'passed';
      read.push({ outcome, titles: [...stack.map((s) => s.title), line.title.replace(FAILED_MARK, '').replace(PENDING_MARK, '')] });
    }
    const all = read;
    const failing = all.filter((e) => e.outcome === 'failed');
    const listed = new Set(failing.map((e) => fullDescription(e.titles)));
    const sameFailures = listed.size === failedList.size && [...listed].every((d) => failedList.has(d));
    if (all.length === 0 && examples > 0 && progress) {
      noteOnlyFailures("RSpec's progress format names only the examples that fail; run rspec with --format documentation or --format json so each example has a line");
    } else if (all.length !== examples || failing.length !== failed || all.filter((e) => e.outcome === 'pending').length !== pending || !sameFailures) {
      note(
        `RSpec's documentation output shows ${all.length} example(s), ${failing.length} failed, where RSpec counted ${examples}, ${failed} failed, ${pending} pending ` +
          '(lines the specs printed are mixed into the tree; run rspec with --format json, which bugbench reads whole)',
      );
    } else {
      for (const example of all) {
        if (example.outcome === 'pending') continue;
        const names = namesOf(example.titles);
        results.add(names, example.outcome);
        if (example.outcome === 'failed') failures.add(names, details.get(names.id)?.lines ?? []);
      }
    }
    tree = [];
    inTree = true;
    inFailedList = false;
    failedList = new Set();
    details = new Map();
    detail = undefined;
    finished = false;
    progress = false;
  };

  const closeCounted = () => {
    const [examples, failed, pending] = counts!;
    counts = undefined;
    close(examples, failed, pending);
  };

  return {
    line(text) {
      const summary = SUMMARY.exec(text);
      if (summary && finished) {
        // RSpec lists the failed examples after its summary: the run is closed once that list is over.
        counts = [Number(summary[1]), Number(summary[2]), Number(summary[3] ?? 0)];
        finished = false;
        return;
      }
      if (counts) {
        if (text === 'Failed examples:') {
          inFailedList = true;
          return;
        }
        const failed = inFailedList ? FAILED_EXAMPLE.exec(text) : null;
        if (failed) {
          failedList.add(failed[1]!);
          return;
        }
        if (text.trim() === '' || /^Randomized with seed \d+$/.test(text)) return;
        closeCounted();
      }
      if (FINISHED.test(text)) {
        finished = true;
        inTree = false;
        detail = undefined;
        return;
      }
      if (text === 'Failures:' || text === 'Pending: (Failures listed here are expected and do not affect your suite\'s status)') {
        inTree = false;
        return;
      }
      if (inTree) {
        if (text.trim() === '') return;
        if (PROGRESS.test(text)) progress = true;
        tree.push({ indent: text.length - text.trimStart().length, title: text.trim() });
        return;
      }
      const head = FAILURE_HEAD.exec(text);
      if (head) {
        detail = new DetailLines();
        details.set(head[2]!, detail);
        return;
      }
      if (/^\s+# \S+:\d+/.test(text)) return;
      detail?.push(text.replace(/^\s*(Failure\/Error: )?/, ''));
    },
    finish(): LogReading | undefined {
      if (counts) closeCounted();
      if (!seen) return undefined;
      const unread = problem.reading(RSPEC_READER);
      if (unread) return unread;
      return results.reading(RSPEC_READER);
    },
    failures: () => failures.record(),
  };
}

/** Whether line `i` can be a line of the tree: an even indent, and a line at the root has a line one level under it. */
function fits(tree: Line[], i: number): boolean {
  const line = tree[i]!;
  if (line.indent % 2 !== 0) return false;
  return line.indent > 0 || tree[i + 1]?.indent === 2;
}

/** The next line after `i` that can be a line of the tree and is at most one level deeper. */
function nextFitting(tree: Line[], i: number): Line | undefined {
  for (let j = i + 1; j < tree.length; j++) if (fits(tree, j) && tree[j]!.indent <= tree[i]!.indent + 2) return tree[j];
  return undefined;
}

interface JsonReport {
  examples?: { full_description?: unknown; description?: unknown; status?: unknown; id?: unknown; exception?: { message?: unknown } }[];
  summary?: { example_count?: unknown; failure_count?: unknown; pending_count?: unknown };
}

export function rspecJsonReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let seen = false;
  let problem: string | undefined;
  return {
    line(text) {
      const at = text.indexOf('{"version":');
      if (at < 0 || !text.includes('"examples":[')) return;
      seen = true;
      let report: JsonReport;
      try {
        report = JSON.parse(text.slice(at)) as JsonReport;
      } catch {
        problem ??= "RSpec's JSON report is not whole (it was cut, or something printed onto its line)";
        return;
      }
      const examples = report.examples ?? [];
      const summary = report.summary ?? {};
      const counted = examples.filter((e) => e.status === 'failed').length;
      if (examples.length !== summary.example_count || counted !== summary.failure_count) {
        problem ??= `RSpec's JSON report lists ${examples.length} example(s), ${counted} failed, where its summary counts ${String(summary.example_count)}, ${String(summary.failure_count)} failed`;
        return;
      }
      for (const example of examples) {
        if (example.status !== 'passed' && example.status !== 'failed') continue;
        const full = String(example.full_description ?? '');
        const description = String(example.description ?? '');
        // The JSON gives the example's own title but not its groups' one by one: the rest of the full description is its group.
        const names = full.endsWith(description) && description !== full ? rspecNames(full, [full.slice(0, full.length - description.length).trimEnd(), description]) : { id: full };
        results.add(names, example.status);
        if (example.status === 'failed') failures.add(names, new DetailLines().pushAll(String(example.exception?.message ?? '').split('\n')).lines);
      }
    },
    finish(): LogReading | undefined {
      if (!seen) return undefined;
      if (problem) return { reader: RSPEC_JSON_READER, why: problem };
      return results.reading(RSPEC_JSON_READER);
    },
    failures: () => failures.record(),
  };
}
