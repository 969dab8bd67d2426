/**
 * Why tests the original run showed are missing from a later run. A test may
 * vanish for a reason the log shows: its whole file or package failed to load
 * (a collection, import or build error takes every test of it along), the
 * runner crashed, or the bug renamed it (a parameter in its id changed, and a
 * new id of the same file appeared). Only what the state under test brought
 * to the log counts: a line the original run's log holds too ("no servers to
 * be killed", a passing test's captured output) explains nothing. A test that
 * vanishes with no new id beside it and nothing new in the log to say why was
 * left out by the test script: its selection follows the code, and a test the
 * bug never made fail must not stand in FAIL_TO_PASS. A whole file that goes
 * is explained by a new line that names it, as runners name a file they could
 * not load; a script that quietly stops passing it names it nowhere.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { TestMap } from './test-results.js';
import { splitTestId } from './weakening.js';

/** What a log says when tests go missing for a reason: loading errors and crashes, in the languages bugbench reads. */
const REASONS: RegExp[] = [
  /ERROR collecting|ImportError while importing|INTERNALERROR|Fatal Python error/, // pytest, CPython
  /\d+ errors? during collection|^ERROR [^\s:]+\.py(?: - .*)?$/m, // pytest with --tb=no: only the summary names a module that failed to load
  /Segmentation fault|core dumped|\bKilled\b|SIGSEGV|SIGABRT|out of memory/i, // any process
  /^panic: |\[build failed\]|\[setup failed\]/m, // go test
  /thread '[^']*' panicked|error\[E\d+\]|could not compile/, // cargo test
  /Cannot find module|SyntaxError:|Test suite failed to run/, // node runners
  /Could not compile|COMPILATION ERROR|Could not resolve dependencies|ExceptionInInitializerError/, // JVM builds
];

/** The file (or package) a test belongs to: what a loading error takes away whole. */
export function testGroup(id: string): string {
  if (id.includes('::')) return splitTestId(id).file;
  const slash = id.lastIndexOf('/');
  return slash >= 0 ? id.slice(0, slash) : '';
}

/**
 * A log line as two runs' lines are compared: trimmed, with the numbers that
 * move from run to run as `#` (percentages, durations, pids and counts), but
 * not those of a name (`test_v2.py`, `test_x[3]`), which tell files apart.
 */
function comparable(line: string): string {
  return line
    .trim()
    .replace(/\d+(?:\.\d+)?%/g, '#%')
    .replace(/(?<![\w./[-])\d+(?:\.\d+)?(?:ms|s)?(?![\w/-])/g, '#');
}

/**
 * The lines of `log` (trimmed) that `baseline` does not hold as often: what
 * the state under test brought to its log. A line the original run printed
 * once is new the second time the buggy run prints it.
 */
function newLines(log: string, baseline: string): string[] {
  const known = new Map<string, number>();
  for (const line of baseline.split('\n')) {
    const key = comparable(line);
    if (key !== '') known.set(key, (known.get(key) ?? 0) + 1);
  }
  const fresh: string[] = [];
  for (const line of log.split('\n')) {
    const key = comparable(line);
    if (key === '') continue;
    const left = known.get(key) ?? 0;
    if (left > 0) known.set(key, left - 1);
    else fresh.push(line.trim());
  }
  return fresh;
}

/**
 * pytest's report of its failing tests: from its FAILURES header to the next
 * header. A test's own traceback there (`SyntaxError: unexpected character`,
 * a message that says "killed") is what a failing test printed, not a loading
 * error or crash of the runner's: those come in ERRORS, or cut the run short
 * before any report.
 */
function withoutFailureReports(log: string): string {
  const kept: string[] = [];
  let inReport = false;
  for (const line of log.split('\n')) {
    const header = /^=+ (.+?) =+$/.exec(line.trim());
    if (header) inReport = header[1] === 'FAILURES';
    if (!inReport) kept.push(line);
  }
  return kept.join('\n');
}

/** A runner told to stop at the first failures (pytest's -x, --maxfail): the tests after them vanish because the script asked, not for a reason. */
const STOPPED_ON_FAILURE = /stopping after \d+ failures?/;

/** Whether the state under test made the runner stop at its first failures (a line of `log` that `baseline` lacks says so). */
export function stoppedOnFailure(log: string, baseline = ''): boolean {
  return newLines(log, baseline).some((line) => STOPPED_ON_FAILURE.test(line));
}

/** What the first line of `log` that shows a loading error or crash, and that `baseline` does not hold, says of it. */
export function logShowsReason(log: string, baseline = ''): string | undefined {
  return firstReason(newLines(withoutFailureReports(log), withoutFailureReports(baseline)));
}

function firstReason(lines: string[]): string | undefined {
  for (const line of lines) {
    for (const pattern of REASONS) {
      const match = pattern.exec(line);
      if (match) return match[0].trim();
    }
  }
  return undefined;
}

/** The last `max` bytes of a log (crashes and summaries come last). */
export function readLogTail(path: string, max = 4 * 1024 * 1024): string {
  try {
    const size = statSync(path).size;
    const length = Math.min(size, max);
    const buffer = Buffer.alloc(length);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, buffer, 0, length, size - length);
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8');
  } catch {
    return '';
  }
}

/**
 * The names a line may give a test group by: the group, and each leading part
 * of it that is a file below a folder (`test/a.test.js` of
 * `test/a.test.js/suite`; not `example.com` of a Go module's path).
 */
function groupNames(group: string): string[] {
  const parts = group.split('/');
  const files = parts.map((_, i) => parts.slice(0, i + 1).join('/')).filter((prefix) => prefix.includes('/') && /\.[A-Za-z]{1,5}$/.test(prefix));
  return [...new Set([group, ...files])].filter((name) => name !== '');
}

/**
 * The groups among `groups` that a line of `lines` names as a whole path: a
 * path in a line (`ok mymod/b 0.1s`, `/repo/tests/t.py:3:`) names a group
 * when it, or its part after some `/`, is one of the group's names; so
 * `mymod/b/sub` does not name `mymod/b`. One pass over the lines.
 */
function namedGroups(lines: string[], groups: Iterable<string>): Set<string> {
  const byName = new Map<string, string[]>();
  for (const group of groups) for (const name of groupNames(group)) byName.set(name, [...(byName.get(name) ?? []), group]);
  const named = new Set<string>();
  if (byName.size === 0) return named;
  for (const line of lines) {
    for (const raw of line.split(/[^\w./-]+/)) {
      const path = raw.replace(/\.+$/, '');
      for (let at = 0; at >= 0 && at < path.length; at = path.indexOf('/', at) + 1 || -1) {
        for (const group of byName.get(path.slice(at)) ?? []) named.add(group);
      }
    }
  }
  return named;
}

/**
 * The vanished tests (`vanished`: in `before`, missing from `after`) that
 * nothing explains: no new id of their file appeared, the log (beside the
 * original run's, `baseline`) shows no new loading error or crash, and either
 * the rest of their file ran or no new line of the log names their file.
 */
export function unexplainedVanished(before: TestMap, after: TestMap, vanished: string[], log: string, baseline = ''): string[] {
  if (vanished.length === 0) return [];
  const fresh = newLines(log, baseline);
  if (!fresh.some((line) => STOPPED_ON_FAILURE.test(line)) && logShowsReason(log, baseline)) return [];
  const present = new Map<string, number>();
  const added = new Set<string>();
  for (const id of Object.keys(after)) {
    const group = testGroup(id);
    present.set(group, (present.get(group) ?? 0) + 1);
    if (before[id] === undefined) added.add(group);
  }
  // The groups gone whole, and those of them a new line of the log names (thousands of their tests may have gone).
  const whole = new Set(vanished.map(testGroup).filter((group) => !added.has(group) && (present.get(group) ?? 0) === 0));
  const named = whole.size > 0 ? namedGroups(fresh, whole) : new Set<string>();
  return vanished.filter((id) => {
    const group = testGroup(id);
    if (added.has(group)) return false;
    if ((present.get(group) ?? 0) > 0) return true;
    return !named.has(group);
  });
}
