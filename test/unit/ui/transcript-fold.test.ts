import { describe, expect, it } from 'vitest';
import type { TranscriptLine } from '../../../src/ui/run-state.js';
import { refoldedScroll, transcriptRows } from '../../../src/ui/transcript.js';

const output = (name: string): TranscriptLine => ({ kind: 'output', text: '', lines: Array.from({ length: 20 }, (_, i) => `${name} ${i}`) });
const lines: TranscriptLine[] = [{ kind: 'text', text: 'intro' }, output('a'), { kind: 'text', text: 'middle' }, output('b'), { kind: 'text', text: 'end' }];

/** The first row in view, `scroll` rows up from the end of a view `height` rows tall. */
function topRow(unfold: boolean, scroll: number, height: number): string {
  const rows = transcriptRows(lines, 60, unfold);
  return rows[Math.max(0, rows.length - scroll - height)]!.text.trim();
}

describe('folding a transcript in place', () => {
  it('keeps the line at the top of the view at the top when long outputs unfold and fold again', () => {
    expect(transcriptRows(lines, 60, false)).toHaveLength(17);
    expect(transcriptRows(lines, 60, true)).toHaveLength(43);
    // At the top (g): still at the top.
    const unfolded = refoldedScroll(lines, 60, false, 12, 5);
    expect(unfolded).toBe(38);
    expect(topRow(true, unfolded, 5)).toBe('intro');
    // With "middle" at the top: it stays there, both ways.
    expect(topRow(false, 4, 5)).toBe('middle');
    const middle = refoldedScroll(lines, 60, false, 4, 5);
    expect(topRow(true, middle, 5)).toBe('middle');
    expect(topRow(false, refoldedScroll(lines, 60, true, middle, 5), 5)).toBe('middle');
  });

  it('keeps following the end', () => {
    expect(refoldedScroll(lines, 60, false, 0, 5)).toBe(0);
  });
});
