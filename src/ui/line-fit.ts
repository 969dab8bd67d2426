/**
 * Fitting text to the terminal's columns: the one place where every screen
 * measures, cuts, pads and wraps its lines.
 *
 * A line is measured after its tabs are expanded. The rule, for every line
 * (code, logs, transcripts): a tab moves to the next multiple of TAB_STOP
 * columns, counted from the start of the line. Ink counts a tab as a single
 * character while the terminal draws it as several columns, so a line that
 * kept its tabs lost its end; Go code is indented with tabs, and `go test`
 * separates its columns with them.
 */

/** Columns between tab stops: 4, as code is read (a diff's `+`/`-` falls inside the first stop). */
export const TAB_STOP = 4;

/** `text` with each tab replaced by the spaces up to the next tab stop. */
export function expandTabs(text: string, stop = TAB_STOP): string {
  if (!text.includes('\t')) return text;
  let out = '';
  let column = 0;
  for (const char of text) {
    if (char === '\t') {
      const spaces = stop - (column % stop);
      out += ' '.repeat(spaces);
      column += spaces;
    } else {
      out += char;
      column = char === '\n' ? 0 : column + 1;
    }
  }
  return out;
}

/** How many columns `text` takes once its tabs are expanded (a character a column). */
export function columnsOf(text: string): number {
  return [...expandTabs(text)].length;
}

/** `text` cut to `width` columns, with "…" where it was cut. */
export function clip(text: string, width: number): string {
  const chars = [...expandTabs(text)];
  return chars.length > width ? `${chars.slice(0, Math.max(0, width - 1)).join('')}…` : chars.join('');
}

/** `text` cut to `width` columns, or padded to exactly `width`. */
export function fit(text: string, width: number): string {
  const cut = clip(text, width);
  return cut + ' '.repeat(Math.max(0, width - [...cut].length));
}

/** Breaks `text` into pieces of at most `width` columns, at spaces where it can; pieces after the first start with `indent`. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const expanded = expandTabs(text);
  const chars = [...expanded];
  if (chars.length <= width) return [expanded];
  const out: string[] = [];
  let rest = chars;
  let first = true;
  while (rest.length > 0) {
    const room = first ? width : width - indent.length;
    if (rest.length <= room) {
      out.push((first ? '' : indent) + rest.join(''));
      break;
    }
    let cut = rest.lastIndexOf(' ', room);
    if (cut < room / 2) cut = room;
    out.push((first ? '' : indent) + rest.slice(0, cut).join('').trimEnd());
    rest = rest.slice(cut);
    while (rest[0] === ' ') rest = rest.slice(1);
    first = false;
  }
  return out;
}
