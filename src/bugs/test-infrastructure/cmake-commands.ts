/**
 * Splits a CMake file into its command invocations, as CMake's own grammar
 * reads them (cmake-language(7)): `identifier ( arguments )` where arguments
 * are unquoted, "quoted" (with \ escapes) or [[bracket]] ([==[ … ]==])
 * arguments and nested parentheses; `#` line comments and `#[[ … ]]` bracket
 * comments are skipped. Names are lower-cased (CMake's commands are
 * case-insensitive); each command keeps its source text.
 */

export interface CMakeCommand {
  /** The command's name, lower-cased. */
  name: string;
  /** The arguments, unquoted (variables are not expanded). */
  args: string[];
  /** The invocation as written, from its name to its closing parenthesis. */
  text: string;
}

/** The end of a bracket (`[==[ … ]==]`) opening at `at`, or -1 when `at` does not open one. */
function bracketEnd(text: string, at: number): { end: number; inner: string } | undefined {
  const open = /^\[(=*)\[/.exec(text.slice(at, at + 64));
  if (!open) return undefined;
  const close = `]${open[1]}]`;
  const start = at + open[0].length;
  const end = text.indexOf(close, start);
  const stop = end < 0 ? text.length : end;
  return { end: end < 0 ? text.length : end + close.length, inner: text.slice(start, stop) };
}

/** Skips a comment at `at` (which holds `#`); returns where the text goes on. */
function skipComment(text: string, at: number): number {
  const bracket = bracketEnd(text, at + 1);
  if (bracket) return bracket.end;
  const end = text.indexOf('\n', at);
  return end < 0 ? text.length : end;
}

export function cmakeCommands(text: string): CMakeCommand[] {
  const commands: CMakeCommand[] = [];
  const name = /[A-Za-z_][A-Za-z0-9_]*/y;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '#') {
      i = skipComment(text, i);
      continue;
    }
    name.lastIndex = i;
    const found = name.exec(text);
    if (!found) {
      i++;
      continue;
    }
    let j = i + found[0].length;
    while (text[j] === ' ' || text[j] === '\t') j++;
    if (text[j] !== '(') {
      i = j;
      continue;
    }
    const args: string[] = [];
    let depth = 1;
    let word = '';
    let quoted = false;
    const flush = () => {
      if (word !== '' || quoted) args.push(word);
      word = '';
      quoted = false;
    };
    j++;
    while (j < text.length && depth > 0) {
      const ch = text[j]!;
      if (ch === '#') {
        flush();
        j = skipComment(text, j);
        continue;
      }
      if (ch === '"') {
        let k = j + 1;
        while (k < text.length && text[k] !== '"') {
          if (text[k] === '\\') k++;
          word += text[k] ?? '';
          k++;
        }
        quoted = true;
        j = k + 1;
        continue;
      }
      const bracket = ch === '[' && word === '' ? bracketEnd(text, j) : undefined;
      if (bracket) {
        word = bracket.inner;
        quoted = true;
        j = bracket.end;
        continue;
      }
      if (ch === '(') depth++;
      if (ch === ')') depth--;
      if (/\s/.test(ch) || ch === '(' || ch === ')') {
        flush();
      } else {
        word += ch;
      }
      j++;
    }
    flush();
    commands.push({ name: found[0].toLowerCase(), args, text: text.slice(i, j) });
    i = j;
  }
  return commands;
}
