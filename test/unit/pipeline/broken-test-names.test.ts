import { describe, expect, it } from 'vitest';
import { importPath, nameBrokenTests, testLanguage, type DeclaredTest } from '../../../src/pipeline/broken-test-names.js';

const GO: DeclaredTest[] = [
  { file: 'lru/lru_test.go', name: 'TestKeys', scope: 'example.com/m/lru' },
  { file: 'lru/lru_test.go', name: 'TestLen', scope: 'example.com/m/lru' },
  { file: 'window/window_test.go', name: 'TestLen', scope: 'example.com/m/window' },
];

const doomed = (found: ReturnType<typeof nameBrokenTests>) => Object.fromEntries([...found.doomed].map(([f, names]) => [f, [...names].sort()]));

describe('nameBrokenTests', () => {
  it("finds a Go test by go test's id, by a parser's shorter names and by a subtest's", () => {
    for (const name of ['example.com/m/lru/TestKeys', 'lru::TestKeys', 'lru.TestKeys', 'TestKeys', 'example.com/m/lru/TestKeys/empty_cache', 'TestKeys/a/b']) {
      expect(doomed(nameBrokenTests('go', GO, [name])), name).toEqual({ 'lru/lru_test.go': ['TestKeys'] });
    }
  });

  it('tells apart tests of one name in two packages by the package, and calls the bare name ambiguous', () => {
    expect(doomed(nameBrokenTests('go', GO, ['window/TestLen', 'example.com/m/lru/TestLen']))).toEqual({ 'lru/lru_test.go': ['TestLen'], 'window/window_test.go': ['TestLen'] });
    expect(nameBrokenTests('go', GO, ['TestLen']).ambiguous).toEqual([{ name: 'TestLen', tests: ['TestLen (lru/lru_test.go)', 'TestLen (window/window_test.go)'] }]);
  });

  it('leaves unmatched a name that spells no declared test, or a package that is not its', () => {
    expect(nameBrokenTests('go', GO, ['TestGone', 'bucket/TestKeys', 'Keys']).unmatched).toEqual(['TestGone', 'bucket/TestKeys', 'Keys']);
  });

  it('finds a script test by its titles, with or without its file, but never a shorter title for a longer one', () => {
    const ts: DeclaredTest[] = [
      { file: 'test/inc.test.ts', name: 'inc > bumps a/b', titles: ['inc', 'bumps a/b'] },
      { file: 'test/inc.test.ts', name: 'inc > bumps a', titles: ['inc', 'bumps a'] },
    ];
    for (const name of ['inc > bumps a/b', 'test/inc.test.ts > inc > bumps a/b', 'inc.test > inc > bumps a/b', 'bumps a/b']) {
      expect(doomed(nameBrokenTests('typescript', ts, [name])), name).toEqual({ 'test/inc.test.ts': ['inc > bumps a/b'] });
    }
    // A title may hold " > " itself: it stays one title, so its last words alone name nothing.
    const arrow: DeclaredTest[] = [{ file: 'test/cmp.test.ts', name: 'cmp > orders a > b', titles: ['cmp', 'orders a > b'] }];
    expect(doomed(nameBrokenTests('typescript', arrow, ['cmp > orders a > b']))).toEqual({ 'test/cmp.test.ts': ['cmp > orders a > b'] });
    expect(nameBrokenTests('typescript', arrow, ['b']).unmatched).toEqual(['b']);
    // A script's titles hold slashes: no trimming to a subtest as in Go.
    expect(nameBrokenTests('typescript', ts, ['inc > bumps a/c']).unmatched).toEqual(['inc > bumps a/c']);
  });
});

describe('importPath', () => {
  it('joins the nearest module above a file and the folder within it', () => {
    const modules = new Map([
      ['.', 'example.com/m'],
      ['tools', 'example.com/m/tools'],
    ]);
    expect(importPath('lru/lru_test.go', modules)).toBe('example.com/m/lru');
    expect(importPath('x_test.go', modules)).toBe('example.com/m');
    expect(importPath('tools/gen/gen_test.go', modules)).toBe('example.com/m/tools/gen');
    expect(importPath('lru/lru_test.go', new Map())).toBe('lru');
  });
});

describe('testLanguage', () => {
  it('reads the language from the test files, data files aside; Python and mixes go to the Python helper', () => {
    expect(testLanguage(['lru/lru_test.go', 'lru/testdata/golden.json'])).toBe('go');
    expect(testLanguage(['test/a.test.ts', 'test/b.test.mjs'])).toBe('typescript');
    expect(testLanguage(['tests/test_a.py'])).toBeUndefined();
    expect(testLanguage(['a_test.go', 'tests/test_a.py'])).toBeUndefined();
  });
});
