/**
 * A rollout's transcript as terminal rows of a given width: everything kept,
 * wrapped rather than cut (commands, JSON, text), and tool outputs longer than
 * a few lines folded to their head and tail unless unfolded.
 */
import { wrap } from './line-fit.js';
import type { TranscriptLine } from './run-state.js';

export interface Row {
  text: string;
  kind: TranscriptLine['kind'] | 'fold';
  error?: boolean;
}

/** Outputs longer than this are folded. */
export const FOLD_AT = 8;

/** The rows of one line, kept while the line (an immutable object) lives: a frame re-wraps only what changed. */
const wrapped = new WeakMap<TranscriptLine, { width: number; unfold: boolean; rows: Row[] }>();

function lineRows(line: TranscriptLine, width: number, unfold: boolean): Row[] {
  const cached = wrapped.get(line);
  if (cached && cached.width === width && cached.unfold === unfold) return cached.rows;
  const rows: Row[] = [];
  const add = (kind: Row['kind'], text: string, indent = '', error?: boolean) => {
    for (const piece of wrap(text, Math.max(10, width), indent)) rows.push({ kind, text: piece, error });
  };
  if (line.kind === 'output') {
    const output = line.lines ?? [];
    const folded = !unfold && output.length > FOLD_AT;
    const shown = folded ? [...output.slice(0, 3), null, ...output.slice(-3)] : output;
    for (const text of shown) {
      if (text === null) rows.push({ kind: 'fold', text: `    … ${output.length - 6} more lines (f unfolds)` });
      else add('output', `    ${text}`, '      ', line.error);
    }
  } else if (line.kind === 'text') {
    for (const part of line.text.split('\n')) add('text', part);
  } else add(line.kind, line.text, '    ', line.error);
  wrapped.set(line, { width, unfold, rows });
  return rows;
}

export function transcriptRows(lines: TranscriptLine[], width: number, unfold: boolean): Row[] {
  const rows: Row[] = [];
  for (const line of lines) for (const row of lineRows(line, width, unfold)) rows.push(row);
  return rows;
}

/**
 * The scroll (rows up from the end) that keeps the same place of the
 * transcript at the top of a view `height` rows tall when long outputs are
 * folded or unfolded (`unfold` is the state before); a view following the
 * end keeps following it.
 */
export function refoldedScroll(lines: TranscriptLine[], width: number, unfold: boolean, scroll: number, height: number): number {
  if (scroll === 0) return 0;
  const before = lines.map((line) => lineRows(line, width, unfold).length);
  let top = Math.max(0, before.reduce((a, b) => a + b, 0) - scroll - height);
  let at = 0;
  while (at < lines.length && top >= before[at]!) top -= before[at++]!;
  const after = lines.map((line) => lineRows(line, width, !unfold).length);
  const total = after.reduce((a, b) => a + b, 0);
  const newTop = after.slice(0, at).reduce((a, b) => a + b, 0) + Math.min(top, Math.max(0, (after[at] ?? 1) - 1));
  return Math.min(Math.max(0, total - height), Math.max(0, total - height - newTop));
}
