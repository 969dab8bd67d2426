/**
 * How bugbench names the tests it reads, in one place. A reader gives each
 * test one id, unique in the log, and the components of its name (its parts:
 * package or file, suite or class, test, subtest); the parser audit accepts
 * any name made of those components joined by the usual separators, leading
 * ones left out or not (name-match.ts). The rules, per runner:
 *
 * - go test (-json or -v): id `<package>/<Test>`, the test as go prints it,
 *   subtests included ("example.com/m/calc/TestTable/with_space"); parts the
 *   package's path elements, then the test and each subtest
 *   ("TestTable/with_space", as SWE-smith's parser writes it,
 *   "example.com/m/calc::TestTable/with_space", "calc.TestTable/with_space").
 * - cargo test: id `<target>::<name>`, the target being the test binary and the
 *   source it was built from ("calc/src/lib.rs::tests::adds",
 *   "integration/tests/integration.rs::adds", "calc/doc-tests::src/lib.rs - add
 *   (line 5)"), since one name can live in several targets (a library and its
 *   binary, two workspace members); parts the binary, the source (which may be
 *   left out anywhere), the module path and the test ("tests::adds",
 *   "integration::adds").
 * - TAP, jest, vitest, mocha, node's spec reporter: id the titles from the
 *   outermost group to the test joined by " > " ("math > nested > throws"),
 *   after the file where the log names it ("test/a.test.js > math > adds");
 *   parts the file's path elements, each group and the test ("math nested
 *   throws", jest's fullName; "throws" alone).
 * - JUnit XML: id `<classname>.<name>` ("com.example.CalcTest.adds()"); parts
 *   the class name's elements and the method, with or without its parameter
 *   list ("CalcTest#adds", "com.example.CalcTest::adds()").
 * - pytest: id the node id ("tests/test_a.py::TestX::test_y[1-2]"); parts the
 *   path elements, the module written with or without ".py"
 *   ("tests.test_a.TestX.test_y[1-2]"), each class and the test with its
 *   parameters.
 *
 * A name that stands for several tests (two packages with a TestAdd, two
 * describe blocks with an "adds") cannot say which it reports: the audit
 * counts it a disagreement. The same id met twice in one log (a test file run
 * twice, two files whose tests share a path in node's TAP) is one test, with
 * the worst of its outcomes, so that a failure is never hidden behind a pass.
 */
import type { LogOutcome, LogReading, NamePart } from './types.js';

/** A log with more results than this is not read (it would not fit in memory by design). */
export const MAX_TESTS = 200_000;

const RANK: Record<LogOutcome, number> = { xfailed: 0, passed: 1, failed: 2 };

/** The outcome a name shared by tests with these outcomes stands for: a failure wins, then a pass. */
export function worstOutcome(a: LogOutcome, b: LogOutcome): LogOutcome {
  return RANK[b] > RANK[a] ? b : a;
}

/** A test's id and the components of its name. */
export interface TestName {
  id: string;
  /** Absent: the test goes by its id alone. */
  parts?: NamePart[];
}

const scope = (text: string): NamePart => ({ forms: [text], drop: 'scope' });
const group = (text: string): NamePart => ({ forms: [text], drop: 'group' });
const fixed = (...forms: string[]): NamePart => ({ forms: [...new Set(forms)] });

/** A path's folders and file, each of which may be left out from the front; `forms` gives the ways to write the file. */
function pathParts(path: string, forms: (file: string) => string[] = (file) => [file]): NamePart[] {
  const elements = path.split('/');
  // An absolute path keeps its slash on its first folder.
  if (elements[0] === '' && elements.length > 1) elements.splice(0, 2, `/${elements[1]}`);
  return elements.filter((e) => e !== '').map((e, i, all) => (i === all.length - 1 ? { forms: forms(e), drop: 'scope' as const } : scope(e)));
}

export function goNames(pkg: string, test: string): TestName {
  return { id: `${pkg}/${test}`, parts: [...pathParts(pkg), ...test.split('/').map((t) => fixed(t))] };
}

/** A cargo test binary: its name without the hash, and the source it was built from when cargo says so. */
export interface CargoTarget {
  binary: string;
  source?: string;
}

export function cargoTargetLabel(target: CargoTarget): string {
  return target.source ? `${target.binary}/${target.source}` : target.binary;
}

/** `name`: the test's path ("tests::adds"); `printed`: the name as libtest printed it, when longer ("tests::adds - should panic"). */
export function cargoNames(target: CargoTarget | undefined, name: string, printed = name): TestName {
  // A doc test's name is a sentence ("src/lib.rs - calc::add (line 5)"), not a path.
  const path = /\s/.test(name) ? [name] : name.split('::');
  const last = path.pop()!;
  const tail = printed.slice(name.length);
  const parts = [...path.map(group), fixed(last, `${last}${tail}`)];
  if (!target) return { id: name, parts };
  const binary: NamePart[] = [scope(target.binary), ...(target.source ? [{ forms: [target.source], drop: 'any' as const }] : [])];
  return { id: `${cargoTargetLabel(target)}::${name}`, parts: [...binary, ...parts] };
}

/** `titles`: the groups from the outermost, then the test's own title. */
export function pathNames(titles: string[], file?: string): TestName {
  const path = titles.join(' > ');
  const parts = [...(file ? pathParts(file) : []), ...titles.slice(0, -1).map(group), fixed(titles[titles.length - 1] ?? '')];
  return { id: file ? `${file} > ${path}` : path, parts };
}

export function junitNames(classname: string, name: string): TestName {
  const bare = name.replace(/^([^()]+)\([^()]*\)/, '$1');
  const elements = classname === '' ? [] : classname.split('.');
  const parts = elements.map((e, i) => (i === elements.length - 1 ? group(e) : scope(e)));
  return { id: classname === '' ? name : `${classname}.${name}`, parts: [...parts, fixed(name, bare)] };
}

/**
 * A unittest test: `name` in the class `dotted` names (Python 3.11 prints
 * "mod.Class.test_x" itself). Id "mod.Class.test_x"; the runner's own line
 * forms, "test_x (mod.Class)" and "test_x (mod.Class.test_x)", are forms of
 * the test's part. A class or module fixture (setUpClass) goes by the same
 * rules, `name` being the fixture.
 */
export function unittestNames(name: string, dotted: string): TestName {
  const id = dotted.endsWith(`.${name}`) ? dotted : `${dotted}.${name}`;
  const owner = id.slice(0, -name.length - 1);
  const elements = owner.split('.');
  const scopes = elements.map((e, i) => (i === elements.length - 1 ? group(e) : scope(e)));
  return { id, parts: [...scopes, fixed(name, `${name} (${owner})`, `${name} (${id})`)] };
}

/** A Gradle test event: the class as Gradle prints it, then the test's path ("Inner > deep()", "positive(int) > [1] 1"). */
export function gradleNames(classname: string, path: string): TestName {
  const titles = path.split(' > ');
  const test = junitNames(classname, titles.pop()!);
  return { id: `${classname} > ${path}`, parts: [...test.parts!.slice(0, -1), ...titles.map(group), test.parts![test.parts!.length - 1]!] };
}

/** A pytest node id: "tests/test_a.py::TestX::test_y[1-2]" (parameters may hold "::"). */
export function pytestNames(id: string): TestName {
  const bracket = id.indexOf('[');
  const [head, params] = bracket === -1 ? [id, ''] : [id.slice(0, bracket), id.slice(bracket)];
  const [file = '', ...rest] = head.split('::');
  // A file that failed to be collected: named by its path alone.
  if (rest.length === 0) return { id };
  const test = `${rest.pop()!}${params}`;
  const module = pathParts(file, (f) => [f, f.replace(/\.py$/, '')]);
  return { id, parts: [...module, ...rest.map(group), fixed(test)] };
}

/** Collects what a reader read, merging a test met twice, and gives the reading. */
/** A name made of dotted parts as C++ runners print them ("Suite.Test", "Inst/Suite.Test/0"): the suite a group, the rest the test. */
export function dottedNames(name: string): TestName {
  const dot = name.indexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { id: name };
  return { id: name, parts: [group(name.slice(0, dot)), fixed(name.slice(dot + 1))] };
}

/** minitest's `Class#test_x`: the class (its `::` modules as scopes) a group, then the method. */
export function minitestNames(klass: string, method: string): TestName {
  const modules = klass.split('::');
  const last = modules.pop()!;
  return { id: `${klass}#${method}`, parts: [...modules.map(scope), group(last), fixed(method)] };
}

/**
 * RSpec's example `full` (its full description) made of its titles: each
 * enclosing title a group, the example's own title the test. A title that
 * starts with "#", "." or "::" is glued to the one before it in the full
 * description; it may be written without that mark too.
 */
export function rspecNames(full: string, titles: string[]): TestName {
  const forms = (title: string) => [title, title.replace(/^(#|\.|::)/, '')];
  const parts = titles.map((t, i) => (i === titles.length - 1 ? fixed(...forms(t)) : { forms: forms(t), drop: 'group' as const }));
  return { id: full, parts };
}

/** PHPUnit's `Namespace\Class::test`: the class, written with or without its namespace (backslashes or dots), a group; then the test. */
export function phpunitNames(id: string, classForms: string[], test: string): TestName {
  return { id, parts: [{ forms: [...new Set(classForms)], drop: 'group' }, fixed(test)] };
}

export class ResultSet {
  private readonly results = new Map<string, { outcome: LogOutcome; optional: boolean; parts?: NamePart[] }>();
  private overflow = false;

  get size(): number {
    return this.results.size;
  }

  has(id: string): boolean {
    return this.results.has(id);
  }

  add(name: TestName, outcome: LogOutcome, optional = false): void {
    const known = this.results.get(name.id);
    if (!known) {
      if (this.results.size >= MAX_TESTS) {
        this.overflow = true;
        return;
      }
      this.results.set(name.id, { outcome, optional, parts: name.parts });
      return;
    }
    known.outcome = worstOutcome(known.outcome, outcome);
    known.optional &&= optional;
    known.parts ??= name.parts;
  }

  /** The reading, or the reason there is none when the log held too many tests. */
  reading(reader: string): LogReading {
    if (this.overflow) return { reader, why: `the log holds more than ${MAX_TESTS} results` };
    const results: Record<string, LogOutcome> = {};
    const optional: Record<string, LogOutcome> = {};
    const parts: Record<string, NamePart[]> = {};
    for (const [id, test] of this.results) {
      (test.optional ? optional : results)[id] = test.outcome;
      if (test.parts) parts[id] = test.parts;
    }
    const reading: LogReading = { reader, results };
    if (Object.keys(optional).length > 0) reading.optional = optional;
    if (Object.keys(parts).length > 0) reading.parts = parts;
    return reading;
  }
}
