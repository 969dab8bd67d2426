/**
 * How bugbench names the tests it reads, in one place. A reader gives each
 * test one id, unique in the log, and may give it other names (aliases) that
 * an agent's parser would as naturally write; the parser audit accepts any of
 * them. The rules, per runner:
 *
 * - go test (-json or -v): id `<package>/<Test>`, the test as go prints it,
 *   subtests included ("example.com/m/calc/TestTable/with_space"); aliases
 *   the bare test ("TestTable/with_space", as SWE-smith's parser writes it)
 *   and `<package>.<Test>`.
 * - cargo test: id `<target>::<name>`, the target being the test binary and the
 *   source it was built from ("calc/src/lib.rs::tests::adds",
 *   "integration/tests/integration.rs::adds", "calc/doc-tests::src/lib.rs - add
 *   (line 5)"), since one name can live in several targets (a library and its
 *   binary, two workspace members); aliases the bare name ("tests::adds") and
 *   `<binary>::<name>` ("integration::adds").
 * - TAP, jest, vitest, mocha, node's spec reporter: id the titles from the
 *   outermost group to the test joined by " > " ("math > nested > throws"),
 *   after the file where the log names it ("test/a.test.js > math > adds");
 *   aliases the path without the file, the titles joined by a space (jest's
 *   fullName) and the test's own title alone.
 * - JUnit XML: id `<classname>.<name>` ("com.example.CalcTest.adds()");
 *   aliases the same with "#" or "::" in place of the dot, and each of them
 *   with the parameter list dropped ("com.example.CalcTest.adds").
 *
 * One name can then stand for several tests (two packages with a TestAdd, two
 * describe blocks with an "adds"): a parser that uses it must give the worst
 * of their outcomes, so that a failure is never hidden behind a namesake that
 * passed. The same id met twice in one log (a test file run twice, two files
 * whose tests share a path in node's TAP) is read the same way.
 */
import type { LogOutcome, LogReading } from './types.js';

/** A log with more results than this is not read (it would not fit in memory by design). */
export const MAX_TESTS = 200_000;

const RANK: Record<LogOutcome, number> = { xfailed: 0, passed: 1, failed: 2 };

/** The outcome a name shared by tests with these outcomes stands for: a failure wins, then a pass. */
export function worstOutcome(a: LogOutcome, b: LogOutcome): LogOutcome {
  return RANK[b] > RANK[a] ? b : a;
}

export function goNames(pkg: string, test: string): { id: string; aliases: string[] } {
  return { id: `${pkg}/${test}`, aliases: [test, `${pkg}.${test}`] };
}

/** A cargo test binary: its name without the hash, and the source it was built from when cargo says so. */
export interface CargoTarget {
  binary: string;
  source?: string;
}

export function cargoTargetLabel(target: CargoTarget): string {
  return target.source ? `${target.binary}/${target.source}` : target.binary;
}

export function cargoNames(target: CargoTarget, name: string): { id: string; aliases: string[] } {
  return { id: `${cargoTargetLabel(target)}::${name}`, aliases: [name, `${target.binary}::${name}`] };
}

/** `titles`: the groups from the outermost, then the test's own title. */
export function pathNames(titles: string[], file?: string): { id: string; aliases: string[] } {
  const path = titles.join(' > ');
  const aliases = [path, titles.join(' '), titles[titles.length - 1] ?? ''];
  return file ? { id: `${file} > ${path}`, aliases } : { id: path, aliases: aliases.slice(1) };
}

export function junitNames(classname: string, name: string): { id: string; aliases: string[] } {
  const bare = name.replace(/^([^()]+)\([^()]*\)/, '$1');
  const names = new Set<string>();
  for (const method of [name, bare]) for (const sep of ['.', '#', '::']) names.add(classname === '' ? method : `${classname}${sep}${method}`);
  const [id, ...aliases] = [...names];
  return { id: id!, aliases };
}

/** Collects what a reader read, merging a test met twice, and gives the reading. */
export class ResultSet {
  private readonly results = new Map<string, { outcome: LogOutcome; optional: boolean; aliases: Set<string> }>();
  private overflow = false;

  get size(): number {
    return this.results.size;
  }

  has(id: string): boolean {
    return this.results.has(id);
  }

  add(names: { id: string; aliases: string[] }, outcome: LogOutcome, optional = false): void {
    const known = this.results.get(names.id);
    if (!known) {
      if (this.results.size >= MAX_TESTS) {
        this.overflow = true;
        return;
      }
      this.results.set(names.id, { outcome, optional, aliases: new Set(names.aliases.filter((a) => a !== names.id)) });
      return;
    }
    known.outcome = worstOutcome(known.outcome, outcome);
    known.optional &&= optional;
    for (const alias of names.aliases) if (alias !== names.id) known.aliases.add(alias);
  }

  /** The reading, or the reason there is none when the log held too many tests. */
  reading(reader: string): LogReading {
    if (this.overflow) return { reader, why: `the log holds more than ${MAX_TESTS} results` };
    const results: Record<string, LogOutcome> = {};
    const optional: Record<string, LogOutcome> = {};
    const aliases: Record<string, string[]> = {};
    for (const [id, test] of this.results) {
      (test.optional ? optional : results)[id] = test.outcome;
      if (test.aliases.size > 0) aliases[id] = [...test.aliases];
    }
    const reading: LogReading = { reader, results };
    if (Object.keys(optional).length > 0) reading.optional = optional;
    if (Object.keys(aliases).length > 0) reading.aliases = aliases;
    return reading;
  }
}
