import { describe, expect, it } from 'vitest';
import { perTestRuns, weighEvidence } from '../../../src/bugs/evidence.js';
import { readGoImports, revertCovers, testPackage } from '../../../src/bugs/revert-coverage.js';
import type { TestMap } from '../../../src/bugs/test-results.js';

const BASE = 'c9d2ad60d9f1ad862fdd9dd04bef9081818ea897';
const MOD = 'example.com/ratekit';
/** `goImportsCommand`'s output: the module, one go.mod, and `git grep -z` lines naming module packages. */
const output = (grep: [string, string][], gomods = 1) => [`module ${MOD}`, `gomods ${gomods}`, ...grep.map(([file, line]) => `${BASE}:${file}\0${line}`)].join('\n');

const graph = readGoImports(
  output([
    ['cache/cache.go', `\t"${MOD}/lru"`],
    ['cache/cache_test.go', `import "${MOD}/internal/clock"`],
    ['internal/clock/clock.go', `\t"${MOD}/backoff" // for jitter`],
    ['cmd/tool/main.go', `\t"${MOD}/cache"`],
  ]),
  BASE,
  '',
)!;

describe("a revert's coverage in a Go module", () => {
  it('reads the module and which of its packages each package imports, its tests included', () => {
    expect(graph.module).toBe(MOD);
    expect(Object.fromEntries([...graph.imports].map(([from, to]) => [from, [...to].sort()]))).toEqual({
      cache: ['internal/clock', 'lru'],
      'internal/clock': ['backoff'],
      'cmd/tool': ['cache'],
    });
  });

  it('names the package of a test id, and none for an id without one', () => {
    expect(testPackage(`${MOD}/lru/TestKeysMostRecentFirst`, MOD)).toBe('lru');
    expect(testPackage(`${MOD}/lru/TestKeys/empty_cache`, MOD)).toBe('lru');
    expect(testPackage(`${MOD}/TestRoot`, MOD)).toBe('');
    expect(testPackage(`${MOD}/lru::TestKeys`, MOD)).toBe('lru');
    expect(testPackage(`${MOD}/testing/TestKeys`, MOD)).toBe('testing');
    expect(testPackage('TestKeysMostRecentFirst', MOD)).toBeUndefined();
    expect(testPackage('other.org/x/TestY', MOD)).toBeUndefined();
  });

  it('covers the tests of packages that reach the reverted one through no import, directly or through others', () => {
    const backoff = revertCovers(graph, ['backoff/backoff.go'])!;
    expect(backoff(`${MOD}/lru/TestKeys`)).toBe(true);
    expect(backoff(`${MOD}/backoff/TestDelay`)).toBe(false);
    // cache's tests import internal/clock, which imports backoff.
    expect(backoff(`${MOD}/cache/TestGet`)).toBe(false);
    expect(backoff('TestKeys')).toBe(false);
    const lru = revertCovers(graph, ['lru/lru.go'])!;
    expect(lru(`${MOD}/backoff/TestDelay`)).toBe(true);
    expect(lru(`${MOD}/cmd/tool/TestMain`)).toBe(false);
  });

  it('counts an import the bug adds', () => {
    const diff = ['diff --git a/lru/lru.go b/lru/lru.go', '--- a/lru/lru.go', '+++ b/lru/lru.go', '@@ -1,3 +1,4 @@', ' import (', `+\t"${MOD}/backoff"`, ' )'].join('\n');
    const withBug = readGoImports(output([]), BASE, diff)!;
    expect(revertCovers(withBug, ['backoff/backoff.go'])!(`${MOD}/lru/TestKeys`)).toBe(false);
  });

  it('covers nothing it cannot vouch for: test and non-Go files, vendored code, testdata, nested modules, no module', () => {
    expect(revertCovers(graph, ['lru/lru_test.go'])).toBeUndefined();
    expect(revertCovers(graph, ['lru/keys.txt'])).toBeUndefined();
    expect(revertCovers(graph, ['vendor/github.com/x/y/y.go'])).toBeUndefined();
    expect(revertCovers(graph, ['lru/testdata/gen.go'])).toBeUndefined();
    // A file the bug moved from backoff to lru: putting it back touches both packages.
    const moved = revertCovers(graph, ['backoff/delay.go', 'lru/delay.go'])!;
    expect(moved(`${MOD}/lru/TestKeys`)).toBe(false);
    expect(moved(`${MOD}/backoff/TestDelay`)).toBe(false);
    expect(readGoImports(output([], 2), BASE, '')).toBeUndefined();
    expect(readGoImports('none', BASE, '')).toBeUndefined();
  });
});

describe('a covered revert as determinism evidence', () => {
  const run = (label: string, results: TestMap) => ({ label, results });
  const need = { bugRuns: 5, perTest: perTestRuns(5) };
  const [a, b] = [`${MOD}/backoff/TestDelay`, `${MOD}/lru/TestKeys`];
  const original = run('original', { [a]: 'passed', [b]: 'passed', p: 'passed' });
  const coversB = { covers: revertCovers(graph, ['backoff/backoff.go'])! };
  const coversA = { covers: revertCovers(graph, ['lru/lru.go'])! };

  it('counts each revert as a run of the bug for the tests it covers: a valid two-package bug needs one rerun', () => {
    const buggy = run('buggy', { [a]: 'failed', [b]: 'failed', p: 'passed' });
    const revertBackoff = { ...run('revert backoff/backoff.go', { [a]: 'passed', [b]: 'failed', p: 'passed' }), ...coversB };
    const revertLru = { ...run('revert lru/lru.go', { [a]: 'failed', [b]: 'passed', p: 'passed' }), ...coversA };
    const e = weighEvidence({ original: [original], buggy: [buggy], partial: [revertBackoff, revertLru], reverts: [revertBackoff, revertLru], need });
    expect(e.bugRuns).toEqual(['buggy', 'revert backoff/backoff.go', 'revert lru/lru.go']);
    expect(e.restoringReverts).toHaveLength(2);
    expect(e.deficit).toBe(1);
  });

  it("refuses a coin in one package that the other package's revert leaves alone: a tails there is a flip", () => {
    // b fails on a coin (lru); backoff's change breaks nothing. Heads in the revert fixes nothing (inverse mutation refuses); tails is this.
    const buggy = run('buggy', { [a]: 'passed', [b]: 'failed', p: 'passed' });
    const revertBackoff = { ...run('revert backoff/backoff.go', { [a]: 'passed', [b]: 'passed', p: 'passed' }), ...coversB };
    const e = weighEvidence({ original: [original], buggy: [buggy], partial: [revertBackoff], reverts: [revertBackoff], need });
    expect(e.flippingFailures.map((f) => f.id)).toEqual([b]);
  });
});
