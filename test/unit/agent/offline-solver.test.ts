import { describe, expect, it } from 'vitest';
import { parseDiffFiles } from '../../../src/bugs/diff.js';
import { partOfFix } from '../../../src/agent/offline/solver.js';
import { Rng } from '../../../src/agent/offline/rng.js';

const hunk = (at: number) => `@@ -${at},1 +${at},1 @@\n-old ${at}\n+new ${at}\n`;
const file = (path: string, hunks: number[]) => `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n${hunks.map(hunk).join('')}`;

describe('the partial solver', () => {
  it('leaves a file of the fix half-repaired whenever one has two hunks, for every seed', () => {
    const fix = file('a.py', [1, 10]) + file('b.py', [5]);
    for (let seed = 0; seed < 200; seed++) {
      const part = parseDiffFiles(partOfFix(fix, new Rng(seed)));
      const a = part.find((f) => f.newPath === 'a.py');
      expect(a?.hunks.length, `seed ${seed}`).toBe(1);
      expect(part.length).toBeLessThanOrEqual(2);
    }
  });

  it('takes a strict subset of whole files when no file can be split, and nothing from a one-hunk fix', () => {
    const fix = file('a.py', [1]) + file('b.py', [5]) + file('c.py', [7]);
    for (let seed = 0; seed < 50; seed++) {
      const part = parseDiffFiles(partOfFix(fix, new Rng(seed)));
      expect(part.length).toBeGreaterThanOrEqual(1);
      expect(part.length).toBeLessThan(3);
    }
    expect(partOfFix(file('a.py', [1]), new Rng(1))).toBe('');
  });
});
