import { describe, expect, it } from 'vitest';
import { patchStats } from '../../../src/bugs/patch-stats.js';
import { injectReward, solveRate, solverReward } from '../../../src/bugs/rewards.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('patch statistics', () => {
  it('tells code from comments, docstrings and documentation files, and counts files edited and created', () => {
    const diff = [
      'diff --git a/pkg/core.py b/pkg/core.py',
      '--- a/pkg/core.py',
      '+++ b/pkg/core.py',
      '@@ -1,8 +1,14 @@',
      ' def add(a, b):',
      '-    """Add two numbers."""',
      '+    """Add two numbers.',
      '+',
      '+    Works for any numbers.',
      '+    """',
      '-    return a + b',
      '+    # the sum',
      '+    return a - b',
      ' ',
      ' ',
      ' def sub(a, b):',
      '-    return a - b',
      '+    total = a',
      '+    total -= b',
      '+    return total',
      ' ',
      'diff --git a/pkg/new.py b/pkg/new.py',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/pkg/new.py',
      '@@ -0,0 +1,3 @@',
      '+"""A module docstring."""',
      '+',
      '+VALUE = 1',
      'diff --git a/docs/usage.md b/docs/usage.md',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/docs/usage.md',
      '@@ -0,0 +1,2 @@',
      '+# Usage',
      '+Call add.',
      '',
    ].join('\n');
    const stats = patchStats(diff, words, 'words');
    // Code: -return a + b, +return a - b, -return a - b, +total = a, +total -= b, +return total, +VALUE = 1.
    // Documentation: -"""Add…""", +"""Add…, +Works…, +""", +# the sum, +"""A module…""", and the two lines of usage.md.
    expect(stats).toMatchObject({ linesOfCode: 7, linesOfDocumentation: 8, filesEdited: 1, filesCreated: 2, filesDeleted: 0, tokenizer: 'words' });
    expect(stats.diffTokens).toBe(words(diff));
  });

  it('counts comments in other languages and a deleted file', () => {
    const diff = 'diff --git a/src/a.ts b/src/a.ts\ndeleted file mode 100644\n--- a/src/a.ts\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-// helper\n-export const a = 1;\n-\n';
    expect(patchStats(diff, words, 'words')).toMatchObject({ linesOfCode: 1, linesOfDocumentation: 1, filesDeleted: 1, filesEdited: 0 });
  });
});

describe('rewards', () => {
  it('follows equation (1): -1 for failed checks, -alpha at s = 0 and s = 1, 1 - (1 + alpha)s in between', () => {
    expect(injectReward(false, 0.5)).toBe(-1);
    expect(injectReward(true, 0)).toBe(-0.8);
    expect(injectReward(true, 1)).toBe(-0.8);
    expect(injectReward(true, 0.25)).toBeCloseTo(1 - 1.8 * 0.25);
    expect(injectReward(true, 3 / 8, 0.5)).toBeCloseTo(1 - 1.5 * 0.375);
    // alpha at its bounds: 0 makes degenerate bugs free, 1 as costly as a bug whose checks fail... almost.
    expect(injectReward(true, 0, 0)).toBe(-0);
    expect(injectReward(true, 0.5, 0)).toBeCloseTo(0.5);
    expect(injectReward(true, 1, 1)).toBe(-1);
    expect(injectReward(true, 0.5, 1)).toBeCloseTo(0);
    expect(() => injectReward(true, 0.5, 1.2)).toThrow(RangeError);
    expect(() => injectReward(true, 1.5)).toThrow(RangeError);
  });

  it('follows equation (2) per attempt, and the solve rate is solved over attempts', () => {
    expect(solverReward(true)).toBe(1);
    expect(solverReward(false)).toBe(-1);
    expect(solveRate(3, 8)).toBe(0.375);
    expect(solveRate(0, 0)).toBe(0);
  });
});
