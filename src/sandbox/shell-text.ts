/** Text that bash reads safely: single-quoted words and here-documents whose end no line of the text can fake. */

export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A quoted here-document holding `text`: `open` goes after the command, `body` on the lines after it. */
export function hereDoc(text: string): { open: string; body: string } {
  let n = 0;
  const lines = new Set(text.split('\n'));
  while (lines.has(`BUGBENCH_EOF_${n}`)) n++;
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return { open: `<<'BUGBENCH_EOF_${n}'`, body: `${body}BUGBENCH_EOF_${n}` };
}
