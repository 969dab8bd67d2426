import { beforeAll, describe, expect, it } from 'vitest';
import { DELETION_RULES } from '../../../src/agent/offline/syntax-kit.js';
import { loadGrammars } from '../../../src/agent/offline/syntax.js';
import { afterDeletion, planDeletion } from '../../../src/agent/offline/test-deletion.js';

beforeAll(async () => {
  await loadGrammars();
});

const LRU_TEST = `package lru

import (
	"strings"
	"testing"
)

func TestKeys(t *testing.T) {
	if strings.Join(keys(), ",") != "a,b" {
		t.Fatal("order")
	}
}

func TestLen(t *testing.T) {
	if n := 2; n != 2 {
		t.Fatal(n)
	}
}
`;

/** A helper file of the same package that calls TestLen. */
const HELPER_TEST = `package lru

import "testing"

func TestAll(t *testing.T) {
	TestLen(t)
}
`;

const only = (...names: string[]) => (name: string) => names.includes(name);

describe('planDeletion', () => {
  it('deletes the picked Go tests whole and then the imports only they used', () => {
    const texts = new Map([['lru/lru_test.go', LRU_TEST]]);
    const plan = planDeletion(DELETION_RULES.go, texts, new Map([['lru/lru_test.go', only('TestKeys')]]));
    if ('used' in plan) throw new Error(plan.used.join('; '));
    expect(plan.files.map((f) => [f.file, f.doomed])).toEqual([['lru/lru_test.go', ['TestKeys']]]);
    const after = afterDeletion(plan.files[0]!);
    expect(after).not.toContain('TestKeys');
    expect(after).not.toContain('"strings"');
    expect(after).toContain('func TestLen(t *testing.T) {');
  });

  it('deletes nothing when a test of the same package calls one of them, and names the call', () => {
    const texts = new Map([
      ['lru/lru_test.go', LRU_TEST],
      ['lru/all_test.go', HELPER_TEST],
      // Another package's file calling a function of the same name is not a caller.
      ['other/other_test.go', HELPER_TEST.replace('package lru', 'package other')],
    ]);
    const plan = planDeletion(DELETION_RULES.go, texts, new Map([['lru/lru_test.go', only('TestLen')]]));
    expect(plan).toEqual({ used: ['TestLen (used at lru/all_test.go:6)'] });
  });

  it('lets a test go with its caller when both are picked', () => {
    const texts = new Map([
      ['lru/lru_test.go', LRU_TEST],
      ['lru/all_test.go', HELPER_TEST],
    ]);
    const plan = planDeletion(
      DELETION_RULES.go,
      texts,
      new Map([
        ['lru/lru_test.go', only('TestLen')],
        ['lru/all_test.go', only('TestAll')],
      ]),
    );
    if ('used' in plan) throw new Error(plan.used.join('; '));
    expect(plan.files.map((f) => f.doomed)).toEqual([['TestLen'], ['TestAll']]);
  });

  it("deletes a TypeScript test by its describe and it names, leaving the file's others", () => {
    const source = `import { describe, it } from 'node:test';\n\ndescribe('inc', () => {\n  it('bumps', () => {});\n\n  it('keeps', () => {});\n});\n`;
    const plan = planDeletion(DELETION_RULES.typescript, new Map([['test/inc.test.ts', source]]), new Map([['test/inc.test.ts', only('inc > bumps')]]));
    if ('used' in plan) throw new Error(plan.used.join('; '));
    const after = afterDeletion(plan.files[0]!);
    expect(after).not.toContain('bumps');
    expect(after).toContain("it('keeps'");
    // Each test keeps its titles apart, a title holding " > " too.
    expect(DELETION_RULES.typescript.tests('test/cmp.test.ts', "describe('cmp', () => {\n  it('orders a > b', () => {});\n});\n").map((t) => t.titles)).toEqual([['cmp', 'orders a > b']]);
  });
});
