/**
 * The parts of a Gradle build script (Groovy build.gradle or Kotlin
 * build.gradle.kts) that decide how its tests run: the blocks that configure
 * test tasks (`test { … }`, `tasks.test { … }`, `tasks.withType<Test> { … }`,
 * `tasks.register("integrationTest", Test) { … }`, `testing { … }`,
 * `sourceSets { test { … } }`), statements such as
 * `tasks.test.useJUnitPlatform()`, and test dependencies
 * (`testImplementation …`, `testRuntimeOnly …`).
 *
 * There is no Groovy or Kotlin grammar at hand, so a small scanner blanks out
 * strings (with their `${…}` templates) and comments, then counts brackets to
 * find where statements and blocks end. Groovy's slashy strings (`/…/`) are
 * not recognised; they are rare in build scripts.
 */
import { addPart, type TestParts } from './convention.js';

interface Masked {
  /** Strings and comments blanked: brackets in it are code. */
  code: string;
  /** Comments blanked, strings kept: for reading statements. */
  readable: string;
}

/** Blanks strings and comments of a Groovy or Kotlin script, keeping every offset and newline. */
export function maskScript(text: string, kotlin: boolean): Masked {
  const code = text.split('');
  const readable = text.split('');
  const n = text.length;
  const blank = (chars: string[], from: number, to: number) => {
    for (let k = from; k < to && k < n; k++) if (chars[k] !== '\n') chars[k] = ' ';
  };
  // Scans code from i; inside a template (`${`) it stops after the brace that closes it.
  const scanCode = (i: number, template: boolean): number => {
    let depth = 0;
    while (i < n) {
      const c = text[i]!;
      if (c === '/' && text[i + 1] === '/') {
        const end = text.indexOf('\n', i) < 0 ? n : text.indexOf('\n', i);
        blank(code, i, end);
        blank(readable, i, end);
        i = end;
      } else if (c === '/' && text[i + 1] === '*') {
        const end = commentEnd(i);
        blank(code, i, end);
        blank(readable, i, end);
        i = end;
      } else if (c === '"' || c === "'") {
        const quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
        const end = stringEnd(i, quote);
        blank(code, i, end);
        i = end;
      } else {
        if (template && c === '{') depth++;
        if (template && c === '}' && depth-- === 0) return i + 1;
        i++;
      }
    }
    return n;
  };
  const commentEnd = (start: number): number => {
    let depth = 0;
    for (let i = start; i < n; i++) {
      if (text.startsWith('/*', i) && (depth === 0 || kotlin)) {
        depth++;
        i++;
      } else if (text.startsWith('*/', i)) {
        if (--depth === 0) return i + 2;
        i++;
      }
    }
    return n;
  };
  const stringEnd = (start: number, quote: string): number => {
    // Groovy's single-quoted strings have no templates; Kotlin's '…' is a char.
    const templates = quote[0] === '"';
    const escapes = quote.length === 1 || !kotlin;
    let i = start + quote.length;
    while (i < n) {
      if (escapes && text[i] === '\\') i += 2;
      else if (templates && text.startsWith('${', i)) i = scanCode(i + 2, true);
      else if (text.startsWith(quote, i)) return i + quote.length;
      else if (quote.length === 1 && text[i] === '\n') return i;
      else i++;
    }
    return n;
  };
  scanCode(0, false);
  return { code: code.join(''), readable: readable.join('') };
}

interface Statement {
  start: number;
  end: number;
  /** Offsets of the `{` and `}` of the blocks at the statement's own level (not inside its parentheses). */
  blocks: [number, number][];
}

/** Offset of the `}` that closes the `{` at `open`, or `to` when it is not closed. */
function closing(code: string, open: number, to: number): number {
  let depth = 0;
  for (let i = open; i < to; i++) {
    if (code[i] === '{') depth++;
    else if (code[i] === '}' && --depth === 0) return i;
  }
  return to;
}

/** Whether the statement that reached the newline at `i` goes on in the next line (`.method()` chains, a dangling operator). */
function continues(readable: string, start: number, i: number): boolean {
  if (/[=,.(\[+\-*&|?:]$/.test(readable.slice(start, i).trimEnd())) return true;
  return /^\s*\??\./.test(readable.slice(i + 1, i + 200));
}

/** The statements between `from` and `to`; each ends with its line, a `;` or the end of a block. */
function statements({ code, readable }: Masked, from: number, to: number): Statement[] {
  const out: Statement[] = [];
  let i = from;
  while (i < to) {
    // Strings are blank in `code`: a statement may start with one ("testRuntimeOnly"(…)).
    while (i < to && /[\s;]/.test(readable[i]!)) i++;
    if (i >= to) break;
    const start = i;
    const blocks: [number, number][] = [];
    let parens = 0;
    while (i < to) {
      const c = code[i]!;
      if (c === '{') {
        const close = closing(code, i, to);
        if (parens === 0) blocks.push([i, close]);
        i = close + 1;
        continue;
      }
      if (c === '(' || c === '[') parens++;
      else if (c === ')' || c === ']') parens = Math.max(0, parens - 1);
      else if (parens === 0 && (c === ';' || c === '}' || (c === '\n' && !continues(readable, start, i)))) break;
      i++;
    }
    out.push({ start, end: Math.min(i, to), blocks });
    if (code[i] === '}') i++;
  }
  return out;
}

/** Heads (the text before a statement's block, or the whole statement) that configure test tasks or test sources. */
const TEST_HEADS = [
  /^(?:tasks\s*\.\s*)?test(?!\w)/,
  /^testing(?!\w)/,
  /^[a-z]\w*Test$/,
  /[<(,:]\s*Test\s*(?:>|\)|,|::class|\.class)/,
  /\b(?:named|getByName|register|create|maybeCreate|findByName)\s*(?:<[^>]*>)?\s*\(\s*["'][\w-]*[tT]est["']/,
];
const TEST_DEPENDENCY = /^["']?(?:\w*[tT]est\w*(?:Implementation|Api|CompileOnly|RuntimeOnly|AnnotationProcessor|Compile|Runtime)|kaptTest)["']?(?!\w)/;

/** What a statement sets or calls, without the value: `tasks.test.maxParallelForks = 2` → `tasks.test.maxParallelForks`. */
const setting = (head: string) => head.split(/\s*(?:=|\()/)[0]!;
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const short = (text: string) => (text.length > 48 ? `${text.slice(0, 47)}…` : text);
/** A statement's text with layout left out: indentation and blank lines do not change a test setup. */
const normal = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n');

function scan(masked: Masked, from: number, to: number, parts: TestParts): void {
  for (const statement of statements(masked, from, to)) {
    const head = flat(masked.readable.slice(statement.start, statement.blocks[0]?.[0] ?? statement.end));
    const whole = normal(masked.readable.slice(statement.start, statement.end));
    if (TEST_DEPENDENCY.test(head)) addPart(parts, 'test dependencies', whole);
    else if (TEST_HEADS.some((pattern) => pattern.test(head))) addPart(parts, statement.blocks.length > 0 ? `the ${short(head)} { … } block` : short(setting(head)), whole);
    else for (const [open, close] of statement.blocks) scan(masked, open + 1, close, parts);
  }
}

export function gradleTestParts(path: string, text: string): TestParts {
  const parts: TestParts = new Map();
  scan(maskScript(text, path.endsWith('.kts')), 0, text.length, parts);
  return parts;
}
