/**
 * Splices of a file turned into the editor's str_replace calls, as an agent
 * makes them: whole lines, with as many neighbouring lines as it takes for the
 * old text to occur exactly once in the file.
 */
import { applySplices, lineStart, type Splice } from './syntax.js';
import type { ToolCall } from './offline-model.js';

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) count++;
  return count;
}

/** The old and new text of one str_replace that makes `splice`, or undefined when no span of lines is unique. */
export function strReplaceFor(source: string, splice: Splice): { old: string; new: string } | undefined {
  let start = lineStart(source, splice.start);
  const newline = source.indexOf('\n', Math.max(splice.end - 1, splice.start));
  let end = newline < 0 ? source.length : newline + 1;
  for (;;) {
    const old = source.slice(start, end);
    if (old !== '' && occurrences(source, old) === 1) {
      return { old, new: source.slice(start, splice.start) + splice.text + source.slice(splice.end, end) };
    }
    if (start === 0 && end === source.length) return undefined;
    if (start > 0) start = lineStart(source, start - 1);
    if (end < source.length) {
      const next = source.indexOf('\n', end);
      end = next < 0 ? source.length : next + 1;
    }
  }
}

/**
 * The str_replace calls that make `splices` in the file at `path`, last first
 * so each is found in the text the earlier ones left; undefined if one cannot
 * be made unique.
 */
export function editCalls(path: string, source: string, splices: Splice[]): ToolCall[] | undefined {
  const calls: ToolCall[] = [];
  let text = source;
  for (const splice of [...splices].sort((a, b) => b.start - a.start)) {
    const edit = strReplaceFor(text, splice);
    if (!edit) return undefined;
    calls.push({ name: 'editor', input: { command: 'str_replace', path, old_str: edit.old, new_str: edit.new } });
    text = applySplices(text, [splice]);
  }
  return calls;
}
