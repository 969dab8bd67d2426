import { beforeAll, describe, expect, it } from 'vitest';
import { editCalls, strReplaceFor } from '../../../src/agent/offline/editor-edits.js';
import { goMutations, goRemovals, goTests, goUnusedImports } from '../../../src/agent/offline/go-source.js';
import { applySplices, loadGrammars, mergeDeletions } from '../../../src/agent/offline/syntax.js';
import { tsMutations, tsRemovals, tsTests } from '../../../src/agent/offline/ts-source.js';

beforeAll(async () => {
  await loadGrammars();
});

const GO = `package cache

import (
	"errors"
	"strings"
)

// Get returns the value of key.
func (c *Cache[K, V]) Get(key K) (V, error) {
	v, ok := c.items[key]
	if !ok || c.size < 0 {
		return *new(V), errors.New("missing")
	}
	return v, nil
}

func count(s string) (n int) {
	n = strings.Count(s, "{")
	return n + 1
}

func reset(c *Cache) {
	c.items = nil
	c.size = 0
}

func one() int { return 1 }

func label(s string) string { return "x" + s }
`;

describe('Go source', () => {
  it('empties bodies into the zero values of the results, so the package still compiles', async () => {
    const removed = await goRemovals('cache.go', GO);
    expect(removed.map((r) => r.label)).toEqual(['the body of Cache.Get in cache.go', 'the body of count in cache.go', 'the body of reset in cache.go']);
    const [get, count, reset] = removed.map((r) => applySplices(GO, [r]));
    expect(get).toContain('func (c *Cache[K, V]) Get(key K) (V, error) {\n\treturn *new(V), nil\n}');
    expect(count).toContain('func count(s string) (n int) {\n\treturn\n}');
    expect(reset).toContain('func reset(c *Cache) {\n}');
  });

  it('finds comparisons, operators, conditions and constants, not string joins', async () => {
    const labels = (await goMutations('cache.go', GO)).map((m) => m.label);
    expect(labels).toContain('comparison "<" → "<=" at cache.go:11');
    expect(labels).toContain('condition "||" → "&&" at cache.go:11');
    expect(labels).toContain('operator "+" → "-" at cache.go:19');
    expect(labels).toContain('constant 0 → 1 at cache.go:24');
    expect(labels.filter((l) => l.endsWith(':29'))).toEqual([]);
  });

  it('deletes a test with its comment, and then the imports only it used', () => {
    const source = `package cache

import (
	_ "embed"
	"strings"
	"testing"
)

func TestFirst(t *testing.T) {
	t.Log("one")
}

// TestUsesStrings needs strings.
func TestUsesStrings(t *testing.T) {
	if !strings.HasPrefix("ab", "a") {
		t.Fatal("no")
	}
}

func helper() {}
`;
    const tests = goTests('cache_test.go', source);
    expect(tests.map((t) => t.name)).toEqual(['TestFirst', 'TestUsesStrings']);
    const kept = applySplices(source, [tests[1]!.span]);
    expect(kept).not.toContain('needs strings');
    expect(kept).toContain('t.Log("one")\n}\n\nfunc helper() {}');
    const tidy = applySplices(kept, goUnusedImports('cache_test.go', kept));
    expect(tidy).toContain('import (\n\t_ "embed"\n\t"testing"\n)');
  });
});

const TS = `import { describe, it } from 'node:test';
export function major(v: Version): number {
  const parts = v.text.split('.');
  return Number(parts[0]) + 0;
}
export function parse(text: string): Version {
  const m = RE.exec(text);
  return { text: m![0] };
}
export const isValid = (text: string): boolean => {
  const m = RE.exec(text);
  return m !== null && text.length < 256;
};
class Range {
  constructor(text: string) {
    this.text = text;
    this.sets = [];
  }
  test(v: string): string | null {
    if (v === '') return null;
    return v + '!';
  }
}
type Small = 0 | 1;
`;

describe('TypeScript source', () => {
  it('empties bodies whose type has an obvious empty value, and leaves constructors alone', async () => {
    const removed = await tsRemovals('src/v.ts', TS);
    expect(removed.map((r) => r.label)).toEqual(['the body of major in src/v.ts', 'the body of isValid in src/v.ts', 'the body of Range.test in src/v.ts']);
    expect(applySplices(TS, [removed[0]!])).toContain('export function major(v: Version): number {\n  return 0;\n}');
    expect(applySplices(TS, [removed[2]!])).toContain("test(v: string): string | null {\n    return null;\n  }");
  });

  it('finds comparisons and constants in code, not in types or string joins', async () => {
    const labels = (await tsMutations('src/v.ts', TS)).map((m) => m.label);
    expect(labels).toContain('comparison "!==" → "===" at src/v.ts:12');
    expect(labels).toContain('comparison "<" → "<=" at src/v.ts:12');
    expect(labels).toContain('constant 256 → 257 at src/v.ts:12');
    expect(labels).toContain('operator "+" → "-" at src/v.ts:4');
    expect(labels.filter((l) => l.endsWith(':21') || l.endsWith(':24'))).toEqual([]);
  });

  it("names tests as node's runner does, suites down to the case", () => {
    const source = `import { describe, it, test } from 'node:test';
describe('range', () => {
  it('matches', () => {});
  describe(\`tilde\`, () => {
    it('reads ~1.2', () => {});
  });
});
test('top level', async () => {});
it(name, () => {});
`;
    const tests = tsTests('test/r.test.ts', source);
    expect(tests.map((t) => t.name)).toEqual(['range > matches', 'range > tilde > reads ~1.2', 'top level']);
    const kept = applySplices(source, mergeDeletions(tests.slice(0, 2).map((t) => t.span)));
    expect(kept).toContain("describe('range', () => {\n  describe(`tilde`, () => {\n  });\n});");
  });
});

describe('editor edits', () => {
  it('take neighbouring lines until the old text is unique', () => {
    const source = 'a\nif x < 1 {\n}\nb\nif x < 1 {\n}\n';
    const at = source.lastIndexOf('<');
    expect(strReplaceFor(source, { start: at, end: at + 1, text: '<=' })).toEqual({ old: 'b\nif x < 1 {\n}\n', new: 'b\nif x <= 1 {\n}\n' });
  });

  it('make several changes bottom up, each found in the text the others left', () => {
    const source = 'one\ntwo\nthree\n';
    const calls = editCalls('f.txt', source, [
      { start: 0, end: 3, text: 'ONE' },
      { start: 8, end: 13, text: 'THREE' },
    ])!;
    let text = source;
    for (const call of calls) text = text.replace(String(call.input.old_str), String(call.input.new_str));
    expect(text).toBe('ONE\ntwo\nTHREE\n');
  });

  it('merge deletions that overlap or touch', () => {
    expect(mergeDeletions([{ start: 5, end: 9, text: '' }, { start: 0, end: 5, text: '' }, { start: 12, end: 14, text: '' }])).toEqual([
      { start: 0, end: 9, text: '' },
      { start: 12, end: 14, text: '' },
    ]);
  });
});
