/**
 * The Checks screen's rows (newcomer report, item 5): its parts never take
 * more rows than there are, and a list cut short says how much is not shown.
 */
import { describe, expect, it } from 'vitest';
import { attemptLabel, checksLayout, fittedList, skippedLines, solveRunCount } from '../../../src/ui/checks-screen.js';

describe('the Checks screen layout', () => {
  it('shares what the fixed parts leave between the higher-order list and the detail, never more', () => {
    // 80×24: 21 rows; title, source, nine checks, a grid of 1 + 3 rows and the heading take 16.
    expect(checksLayout(21, { flaky: false, solveRows: 4, higher: true, listLines: 7, message: false })).toEqual({ listRows: 4, detailRows: 1 });
    expect(checksLayout(21, { flaky: false, solveRows: 4, higher: true, listLines: 2, message: false })).toEqual({ listRows: 2, detailRows: 3 });
    expect(checksLayout(21, { flaky: false, solveRows: 0, higher: false, listLines: 0, message: true })).toEqual({ listRows: 0, detailRows: 9 });
    // Less room than the fixed parts need: nothing more is added.
    expect(checksLayout(15, { flaky: true, solveRows: 4, higher: true, listLines: 7, message: true })).toEqual({ listRows: 0, detailRows: 0 });
  });

  it('cuts a list to its rows with a last line counting the lines and attempts not shown', () => {
    const lines = [
      { text: '  a1 a2: it solved the bug', attempts: 2 },
      { text: '  a3: no oracle test failed after it', attempts: 1 },
      { text: '  a4 a5 a6: it changed no code', attempts: 3 },
    ];
    expect(fittedList(lines, 3)).toEqual(lines.map((l) => l.text));
    expect(fittedList(lines, 2)).toEqual(['  a1 a2: it solved the bug', '  … 2 more (4 attempt(s))']);
    expect(fittedList(lines, 0)).toEqual([]);
  });

  it('names attempts with their solve run when they come from several', () => {
    const skipped = [
      { attempt: 'solve-20260101-000200-a0a0-a1', reason: 'it solved the bug' },
      { attempt: 'solve-20260101-000300-b1b1-a1', reason: 'it solved the bug' },
    ];
    expect(solveRunCount(skipped.map((s) => s.attempt))).toBe(2);
    expect(skippedLines(skipped, true).map((l) => l.text)).toEqual(['  a0a0:a1 b1b1:a1: it solved the bug']);
    expect(attemptLabel('solve-cli-a3', false)).toBe('a3');
  });
});
