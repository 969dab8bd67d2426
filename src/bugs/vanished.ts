/**
 * Why tests the original run showed are missing from a later run. A test may
 * vanish for a reason the log shows: its whole file or package failed to load
 * (a collection, import or build error takes every test of it along), the
 * runner crashed, or the bug renamed it (a parameter in its id changed, and a
 * new id of the same file appeared). A test that vanishes while the rest of its
 * file ran, with no new id beside it and nothing in the log to say why, was left
 * out by the test script: its selection follows the code, and a test the bug
 * never made fail must not stand in FAIL_TO_PASS.
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

export function logShowsReason(log: string): string | undefined {
  for (const pattern of REASONS) {
    const match = pattern.exec(log);
    if (match) return match[0].trim();
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
 * The vanished tests (`vanished`: in `before`, missing from `after`) that
 * nothing explains: the rest of their file is in `after`, no new id of their
 * file appeared, and the log shows no loading error or crash.
 */
export function unexplainedVanished(before: TestMap, after: TestMap, vanished: string[], log: string): string[] {
  if (vanished.length === 0 || logShowsReason(log)) return [];
  const present = new Map<string, number>();
  const added = new Set<string>();
  for (const id of Object.keys(after)) {
    const group = testGroup(id);
    present.set(group, (present.get(group) ?? 0) + 1);
    if (before[id] === undefined) added.add(group);
  }
  return vanished.filter((id) => {
    const group = testGroup(id);
    return (present.get(group) ?? 0) > 0 && !added.has(group);
  });
}
