/**
 * Which declared tests an agent's parser means by the names of the tests a
 * feature broke. The parser names tests as it likes; a name stands for the
 * declared test it spells from its parts, as the parser audit matches names
 * (name-match.ts): a Go test by its import path's elements (which may be left
 * out from the front) and its name, "example.com/m/lru/TestKeys",
 * "lru::TestKeys" or "TestKeys"; a TypeScript or JavaScript test by its
 * file's path, its describe blocks (either may be left out) and its title,
 * "test/inc.test.ts > inc > bumps" or "inc > bumps". A Go subtest's name
 * stands for its test, which fails with it. Pure.
 */
import { posix } from 'node:path';
import { NameIndex } from '../bugs/log-readers/name-match.js';
import type { NamePart } from '../bugs/log-readers/types.js';

export type TestLanguage = 'go' | 'typescript';

const SCRIPTED = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** A test as its file declares it: a Go test's `scope` is its package's import path; a script's titles are its describe blocks' and its own. */
export type DeclaredTest = { file: string; name: string } & ({ scope: string } | { titles: string[] });

export interface NamedTests {
  /** The declared tests named, by file. */
  doomed: Map<string, Set<string>>;
  /** Names that stand for no declared test. */
  unmatched: string[];
  /** Names that stand for several, with the tests. */
  ambiguous: { name: string; tests: string[] }[];
}

/** The language whose syntax trees hold the test files, or undefined (Python's, mixed, unknown). */
export function testLanguage(testFiles: string[]): TestLanguage | undefined {
  // Data files beside the tests (golden files, snapshots) say nothing of the language.
  const kinds = new Set(testFiles.flatMap((f) => (f.endsWith('.go') ? ['go' as const] : SCRIPTED.test(f) ? ['typescript' as const] : f.endsWith('.py') ? ['python' as const] : [])));
  const [kind] = kinds;
  return kinds.size === 1 && kind !== 'python' ? kind : undefined;
}

function parts(test: DeclaredTest): NamePart[] {
  if ('scope' in test) return [...test.scope.split('/').filter(Boolean).map((p): NamePart => ({ forms: [p], drop: 'scope' })), { forms: [test.name] }];
  const path = test.file.split('/');
  return [
    ...path.map((p, i): NamePart => ({ forms: i === path.length - 1 ? [p, p.replace(SCRIPTED, '')] : [p], drop: 'scope' })),
    ...test.titles.slice(0, -1).map((t): NamePart => ({ forms: [t], drop: 'group' })),
    { forms: [test.titles.at(-1)!] },
  ];
}

export function nameBrokenTests(language: TestLanguage, declared: DeclaredTest[], broken: string[]): NamedTests {
  const index = new NameIndex();
  const byKey = new Map<string, DeclaredTest>();
  for (const test of declared) {
    const key = `${test.file}\0${test.name}`;
    byKey.set(key, test);
    index.add(key, parts(test));
  }
  const found: NamedTests = { doomed: new Map(), unmatched: [], ambiguous: [] };
  for (const id of broken) {
    let tests = index.resolve(id);
    // A Go subtest fails with its test: "pkg/TestA/case_1" stands for TestA.
    for (let name = id; tests.length === 0 && language === 'go' && name.lastIndexOf('/') > 0; ) {
      name = name.slice(0, name.lastIndexOf('/'));
      tests = index.resolve(name);
    }
    if (tests.length === 0) found.unmatched.push(id);
    else if (tests.length > 1) found.ambiguous.push({ name: id, tests: tests.map((k) => `${byKey.get(k)!.name} (${byKey.get(k)!.file})`).sort() });
    else {
      const test = byKey.get(tests[0]!)!;
      found.doomed.set(test.file, (found.doomed.get(test.file) ?? new Set()).add(test.name));
    }
  }
  return found;
}

/** A Go package's import path: the module that holds its folder (the nearest go.mod above it, by folder) and the folder within. */
export function importPath(file: string, modules: ReadonlyMap<string, string>): string {
  for (let dir = posix.dirname(file); ; dir = posix.dirname(dir)) {
    const module = modules.get(dir);
    if (module !== undefined) {
      const within = posix.relative(dir === '.' ? '' : dir, posix.dirname(file));
      return [module, within].filter(Boolean).join('/');
    }
    if (dir === '.' || dir === '/' || dir === '') return posix.dirname(file) === '.' ? '' : posix.dirname(file);
  }
}
