/**
 * What test_weaken.diff hides, in tests: which tests of the oracle suite it
 * deletes, which it changes, and whether it changes something every test may
 * depend on (a conftest.py, a helper, configuration, or a test module outside
 * its test functions). The per-function facts come from data/checks/weakening.py
 * (Python syntax trees, run in the bug's container); without them the count
 * falls back to the runs (tests gone from the weakened run). Pure: unit-tested.
 */
import { isTestModulePath } from './test-infrastructure.js';

export interface WeakenedFile {
  path: string;
  /** Read as Python; otherwise nothing is known of its tests. */
  parsed: boolean;
  /** Test functions ("Class.test_x" or "test_x") deleted, changed and added. */
  deleted: string[];
  changed: string[];
  added: string[];
  /** Something outside the test functions changed. */
  other: boolean;
}

export interface WeakeningAnalysis {
  files: WeakenedFile[];
}

export interface WeakeningSummary {
  /** Files test_weaken.diff touches. */
  files: number;
  /** Tests of the oracle suite it deletes. */
  deletedTests: number;
  /** Tests it changes (their function, or a file they live in outside their functions, or infrastructure they may depend on). */
  changedTests: number;
  /** Tests in the oracle suite (its original run), when known. */
  suiteTests?: number;
  /** Changed files every test may depend on: helpers, conftest.py, configuration. */
  infrastructure: string[];
  /** "syntax": counted from Python syntax trees; "runs": tests gone from the weakened run (changes not counted). */
  method: 'syntax' | 'runs';
  /** The first few deleted and changed tests, for people. */
  examples: { deleted: string[]; changed: string[] };
}

/** The tests a weakening may have altered, for comparing the weakened run with the buggy runs. */
export interface WeakeningScope {
  /** The weakening may touch every test: compare nothing. */
  everything: boolean;
  touched: (id: string) => boolean;
  /**
   * Whether the weakening removed the test (its function, or one it inherits,
   * or something it needs, such as a fixture), so that its absence from the
   * weakened run is the weakening's doing and not a test left out.
   */
  removed: (id: string) => boolean;
}

/** "tests/t.py::TestA::test_b[1-2]" → file "tests/t.py", function "TestA.test_b". */
export function splitTestId(id: string): { file: string; fn?: string } {
  const [file, ...rest] = id.split('::');
  if (rest.length === 0) return { file: file! };
  const bracket = rest.join('::').indexOf('[');
  const path = bracket >= 0 ? rest.join('::').slice(0, bracket) : rest.join('::');
  return { file: file!, fn: path.split('::').join('.') };
}

/** Whether a test id's file is `path` (ids may be relative to a folder below the repository root). */
function sameFile(idFile: string, path: string): boolean {
  return path === idFile || path.endsWith(`/${idFile}`);
}

/** A test module whose functions can be told apart (not a helper, conftest or configuration). */
function isTestModule(file: WeakenedFile): boolean {
  return file.parsed && isTestModulePath(file.path);
}

/**
 * Changed files that every test may depend on: helpers, conftest.py,
 * configuration, and Python test modules that do not parse. A test module of
 * another language is not one of them: its tests are told apart by name.
 */
function infrastructureOf(analysis: WeakeningAnalysis): string[] {
  return analysis.files.filter((f) => !isTestModule(f) && !(isForeignModule(f))).map((f) => f.path);
}

/** A test module by its name that is not Python (a Go, JS, Rust or Java test file): its functions are not read. */
function isForeignModule(file: WeakenedFile): boolean {
  return !file.parsed && !file.path.endsWith('.py') && isTestModulePath(file.path);
}

/** Tests each way, by id of the suite; functions with no id in the suite count once. Tests of modules that are not Python count as deleted when the diff deletes them by name. */
function classify(analysis: WeakeningAnalysis, suite: string[], diff: string) {
  const deleted = new Set<string>();
  const changed = new Set<string>();
  let unrunDeleted = 0;
  let unrunChanged = 0;
  for (const file of analysis.files.filter(isTestModule)) {
    const ids = suite.filter((id) => sameFile(splitTestId(id).file, file.path));
    const idsOf = (fn: string) => ids.filter((id) => splitTestId(id).fn === fn);
    for (const fn of file.deleted) {
      const mine = idsOf(fn);
      mine.forEach((id) => deleted.add(id));
      if (mine.length === 0) unrunDeleted++;
    }
    for (const fn of file.changed) {
      const mine = idsOf(fn);
      mine.forEach((id) => changed.add(id));
      if (mine.length === 0) unrunChanged++;
    }
    if (file.other) ids.filter((id) => !deleted.has(id)).forEach((id) => changed.add(id));
  }
  if (analysis.files.some(isForeignModule)) suite.filter((id) => removedInDiff(id, diff)).forEach((id) => deleted.add(id));
  return { deleted, changed, unrunDeleted, unrunChanged };
}

/**
 * The summary from the syntax-tree analysis when there is one, else from the
 * runs: `suite` is the oracle suite (the original run's tests), `weakened` the
 * tests of the weakened run.
 */
export function summarizeWeakening(
  touchedFiles: string[],
  analysis: WeakeningAnalysis | undefined,
  suite: string[] | undefined,
  weakened: string[] | undefined,
  diff = '',
): WeakeningSummary {
  const ids = suite ?? [];
  const examples = (set: Iterable<string>) => [...set].sort().slice(0, 5);
  if (analysis) {
    const infrastructure = infrastructureOf(analysis);
    const { deleted, changed, unrunDeleted, unrunChanged } = classify(analysis, ids, diff);
    const everything = infrastructure.length > 0;
    const changedCount = everything ? ids.filter((id) => !deleted.has(id)).length : changed.size;
    return {
      files: touchedFiles.length,
      deletedTests: deleted.size + unrunDeleted,
      changedTests: changedCount + unrunChanged,
      suiteTests: suite?.length,
      infrastructure,
      method: 'syntax',
      examples: { deleted: examples(deleted), changed: examples(changed) },
    };
  }
  const inTouched = (id: string) => touchedFiles.some((p) => sameFile(splitTestId(id).file, p));
  const gone = weakened ? ids.filter((id) => inTouched(id) && !weakened.includes(id)) : [];
  return {
    files: touchedFiles.length,
    deletedTests: gone.length,
    changedTests: 0,
    suiteTests: suite?.length,
    infrastructure: touchedFiles.filter((p) => !isTestModulePath(p)),
    method: 'runs',
    examples: { deleted: examples(gone), changed: [] },
  };
}

/**
 * The names a test id goes by in source code: its own (last) name, for Go
 * its top-level test function ("pkg/TestA/sub" → TestA, sub), and for a
 * title spelled out by PHPUnit's testdox the method it came from.
 */
export function sourceNames(id: string): string[] {
  const parts = id
    .replace(/\[[^\]]*\]$/, '')
    .split(/::| > |\/|#/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const last = parts.at(-1)?.split('.').at(-1) ?? '';
  const goFunctions = parts.filter((p) => /^(Test|Benchmark|Example|Fuzz)[A-Z0-9_]/.test(p));
  // PHPUnit's testdox spells the method out ("Truncates at a word boundary" for testTruncatesAtAWordBoundary).
  const words = (parts.at(-1) ?? '').split(' ');
  const spelled = words.length > 1 && id.includes('::') ? [`test${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`, `test_${words.join('_').toLowerCase()}`] : [];
  return [...new Set([last, ...goFunctions, ...spelled])].filter((n) => n.length >= 3);
}

/** Titles quoted on a line (RSpec's `it 'adds'`, Catch2's `TEST_CASE("adds")`, minitest's `test "adds"`) that end `id`. */
function quotedTitlesOf(id: string, lines: string[]): Set<string> {
  const titles = new Set<string>();
  for (const line of lines) {
    for (const [, , title] of line.matchAll(/(['"])((?:(?!\1).){3,}?)\1/g)) {
      if (id === title || [' ', '::', ' > ', '#'].some((sep) => id.endsWith(`${sep}${title}`))) titles.add(title!);
    }
  }
  return titles;
}

/** Whether a weakening's text names a test anywhere (a removed, added or context line, a hunk header). */
export function mentionedInDiff(id: string, diff: string): boolean {
  return sourceNames(id).some((name) => {
    const word = /^\w+$/.test(name) ? new RegExp(`(^|[^\\w])${name}([^\\w]|$)`, 'm') : undefined;
    return word ? word.test(diff) : diff.includes(name);
  });
}

/**
 * Whether the text of a weakening deletes a test by name, in any language:
 * one of its names is on a removed line and on no added line. Used where the
 * test files cannot be read as Python.
 */
export function removedInDiff(id: string, diff: string): boolean {
  const removed: string[] = [];
  const added: string[] = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('---') || line.startsWith('+++')) continue;
    if (line.startsWith('-')) removed.push(line.slice(1));
    else if (line.startsWith('+')) added.push(line.slice(1));
  }
  const mentions = (lines: string[], name: string) => {
    const word = /^\w+$/.test(name) ? new RegExp(`(^|[^\\w])${name}([^\\w]|$)`) : undefined;
    return lines.some((l) => (word ? word.test(l) : l.includes(name)));
  };
  if (sourceNames(id).some((name) => mentions(removed, name) && !mentions(added, name))) return true;
  // Tests named by a sentence (RSpec examples, Catch2 cases) are deleted when their title goes.
  const kept = quotedTitlesOf(id, added);
  return [...quotedTitlesOf(id, removed)].some((title) => !kept.has(title));
}

/** Whether a pytest id names one case of a parametrized test: `tests/t.py::test_x[1-2]`. */
function parametrizedCase(id: string): boolean {
  const at = id.indexOf('::');
  return at >= 0 && id.indexOf('[', at) > at && id.endsWith(']');
}

/** Which tests the weakening may have altered and which it removed (`diff`: test_weaken.diff). */
export function weakeningScope(touchedFiles: string[], analysis: WeakeningAnalysis | undefined, diff = ''): WeakeningScope {
  const inTouched = (id: string) => touchedFiles.some((p) => sameFile(splitTestId(id).file, p));
  const byText = (id: string) => removedInDiff(id, diff);
  if (!analysis) {
    const modulesOnly = touchedFiles.every(isTestModulePath);
    return { everything: !modulesOnly, touched: inTouched, removed: byText };
  }
  const moduleOf = (id: string) => analysis.files.find((f) => sameFile(splitTestId(id).file, f.path));
  // A test file read as Python says exactly which functions went (with those its classes inherit);
  // a change outside them (a fixture, a parametrisation) may remove any of its tests, and a change of a
  // parametrized function (its decorators are part of it) may remove some of its cases.
  const removed = (id: string) => {
    const mine = moduleOf(id);
    if (!mine || !mine.parsed) return byText(id);
    const { fn } = splitTestId(id);
    return mine.other || fn === undefined || mine.deleted.includes(fn) || (mine.changed.includes(fn) && parametrizedCase(id));
  };
  // A weakening that changes what every test depends on (a conftest.py, a helper) may remove any test.
  if (infrastructureOf(analysis).length > 0) return { everything: true, touched: () => true, removed: () => true };
  return {
    // Which tests of a module that is not Python the weakening changed cannot be told: those runs are not compared.
    everything: analysis.files.some(isForeignModule),
    touched: (id) => {
      const { fn } = splitTestId(id);
      const mine = moduleOf(id);
      if (!mine) return false;
      if (mine.other || fn === undefined) return true;
      return mine.deleted.includes(fn) || mine.changed.includes(fn) || mine.added.includes(fn);
    },
    removed,
  };
}

/** How many tests count against --max-weakened-tests. */
export function weakenedCount(summary: WeakeningSummary): number {
  return summary.deletedTests + summary.changedTests;
}

/** "deletes 2 and changes 0 of the 83 tests, in 1 file" (+ the infrastructure it changes). */
export function describeWeakening(summary: WeakeningSummary): string {
  const of = summary.suiteTests !== undefined ? ` of the ${summary.suiteTests} tests` : ' tests';
  const changes = summary.method === 'runs' ? 'changes an unknown number' : `changes ${summary.changedTests}`;
  let text = `the weakening deletes ${summary.deletedTests} and ${changes}${of}, in ${summary.files} file(s)`;
  if (summary.infrastructure.length > 0) {
    text += `; it changes ${summary.infrastructure.join(', ')}, which every test may depend on`;
  }
  if (summary.method === 'runs') text += ' (counted from the runs: the test files could not be read as Python)';
  return text;
}
