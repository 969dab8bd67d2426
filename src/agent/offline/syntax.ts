/**
 * What the offline injector reads source code with in Go and TypeScript (or
 * JavaScript): tree-sitter's grammars, compiled to WebAssembly, so functions,
 * operators and tests are found in real syntax trees (a brace in a string or
 * a comment never moves where a function ends). The grammars load
 * asynchronously, once: loadGrammars() must have finished before parse().
 */
import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Language, Parser, type Node, type Tree, type TreeCursor } from 'web-tree-sitter';

export type SyntaxLanguage = 'go' | 'typescript';

/** The grammar of a file: Go, TypeScript, or TSX for files that may hold JSX. */
type Grammar = 'go' | 'typescript' | 'tsx';

const WASM: Record<Grammar, string> = {
  go: 'tree-sitter-go/tree-sitter-go.wasm',
  typescript: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-typescript/tree-sitter-tsx.wasm',
};

const parsers = new Map<Grammar, Parser>();
let loading: Promise<void> | undefined;

/** Loads the grammars once; a failed load is tried again by the next call. */
export function loadGrammars(): Promise<void> {
  loading ??= (async () => {
    await Parser.init();
    const resolve = createRequire(import.meta.url).resolve;
    for (const grammar of Object.keys(WASM) as Grammar[]) {
      const parser = new Parser();
      parser.setLanguage(await Language.load(resolve(WASM[grammar])));
      parsers.set(grammar, parser);
    }
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

function grammarOf(language: SyntaxLanguage, path: string): Grammar {
  if (language === 'go') return 'go';
  return /\.[jt]sx$/.test(path) ? 'tsx' : 'typescript';
}

/** Parses `source`, hands the root to `read` and frees the tree; undefined when the file does not parse cleanly. */
export function withTree<T>(language: SyntaxLanguage, path: string, source: string, read: (root: Node) => T): T | undefined {
  const parser = parsers.get(grammarOf(language, path));
  if (!parser) throw new Error('the grammars are not loaded: await loadGrammars() first');
  const tree: Tree | null = parser.parse(source);
  if (!tree) return undefined;
  try {
    // A file with syntax errors is one the language's own tools would refuse; candidates in it would mislead.
    return tree.rootNode.hasError ? undefined : read(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/**
 * Like withTree, for reads that take turns with the rest of the process
 * (nodesWhereInTurns): the tree lives until `read` settles.
 */
export async function withTreeInTurns<T>(language: SyntaxLanguage, path: string, source: string, read: (root: Node) => Promise<T>): Promise<T | undefined> {
  const parser = parsers.get(grammarOf(language, path));
  if (!parser) throw new Error('the grammars are not loaded: await loadGrammars() first');
  const tree: Tree | null = parser.parse(source);
  if (!tree) return undefined;
  try {
    return tree.rootNode.hasError ? undefined : await read(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/** Every node under `root` (itself included) for which `keep` holds, in source order. */
export function nodesWhere(root: Node, keep: (node: Node) => boolean): Node[] {
  const found: Node[] = [];
  walk(root, keep, found);
  return found;
}

/**
 * Nodes visited between two turns of the event loop. A large file has
 * hundreds of thousands of nodes (a second of walking): the process's own
 * timers (the engines' pings) and signals (cancel, SIGTERM) must not wait for it.
 */
export const NODES_PER_TURN = 4000;

/** nodesWhere for trees that may be large: it lets the event loop turn every NODES_PER_TURN nodes. */
export async function nodesWhereInTurns(root: Node, keep: (node: Node) => boolean): Promise<Node[]> {
  const found: Node[] = [];
  const cursor = root.walk();
  try {
    for (let state: WalkState = { descend: true, done: false }; !state.done; ) {
      walkSome(cursor, keep, found, state, NODES_PER_TURN);
      if (!state.done) await nextTurn();
    }
  } finally {
    cursor.delete();
  }
  return found;
}

/** Items read between two turns of the event loop when each asks the tree about its node. */
const ITEMS_PER_TURN = 1000;

/** `items.flatMap(map)`, letting the event loop turn every ITEMS_PER_TURN items. */
export async function flatMapInTurns<T, U>(items: T[], map: (item: T) => U[]): Promise<U[]> {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % ITEMS_PER_TURN === 0) await nextTurn();
    for (const u of map(items[i]!)) out.push(u);
  }
  return out;
}

interface WalkState {
  descend: boolean;
  done: boolean;
}

function walk(root: Node, keep: (node: Node) => boolean, found: Node[]): void {
  const cursor = root.walk();
  try {
    walkSome(cursor, keep, found, { descend: true, done: false }, Infinity);
  } finally {
    cursor.delete();
  }
}

/** Walks on from where the cursor is, at most `budget` steps, in source order. */
function walkSome(cursor: TreeCursor, keep: (node: Node) => boolean, found: Node[], state: WalkState, budget: number): void {
  for (let steps = 0; steps < budget; steps++) {
    const { descend } = state;
    if (descend && keep(cursor.currentNode)) found.push(cursor.currentNode);
    if (descend && cursor.gotoFirstChild()) continue;
    if (cursor.gotoNextSibling()) {
      state.descend = true;
      continue;
    }
    if (!cursor.gotoParent()) {
      state.done = true;
      return;
    }
    state.descend = false;
  }
}

/** One change to a source file: the characters [start, end) become `text`. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** A candidate change the injector may try: a splice with a label and a kind. */
export interface SourceChange extends Splice {
  file: string;
  kind: string;
  label: string;
}

/** Deletions made one: spans that overlap or touch become a single span. */
export function mergeDeletions(spans: Splice[]): Splice[] {
  const merged: Splice[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span, text: '' });
  }
  return merged;
}

/** `source` with the splices made (they must not overlap). */
export function applySplices(source: string, splices: Splice[]): string {
  let out = source;
  for (const s of [...splices].sort((a, b) => b.start - a.start)) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

/** The start of the line that holds `index`. */
export function lineStart(source: string, index: number): number {
  return source.lastIndexOf('\n', index - 1) + 1;
}

/** The indentation of the line that holds `index`. */
export function indentAt(source: string, index: number): string {
  const start = lineStart(source, index);
  return /^[ \t]*/.exec(source.slice(start))![0];
}

/**
 * What deleting a declaration removes: its lines, the comments right above it
 * (with no blank line between), and one blank line, the one before it or else
 * the one after, so no stray comment and no double gap is left.
 */
export function deletionSpan(source: string, node: Node): Splice {
  let start = lineStart(source, node.startIndex);
  let previous = node.previousSibling;
  while (previous && previous.type.includes('comment') && source.slice(previous.endIndex, start).split('\n').length <= 2) {
    start = lineStart(source, previous.startIndex);
    previous = previous.previousSibling;
  }
  const newline = source.indexOf('\n', node.endIndex);
  let end = newline < 0 ? source.length : newline + 1;
  if (source.slice(0, start).endsWith('\n\n')) start -= 1;
  else if (source[end] === '\n') end += 1;
  return { start, end, text: '' };
}

/** What a language flips: operator tokens (to their replacement and kind), the nodes that are text, and integer constants. */
export interface FlipRules {
  operators: Record<string, [string, string]>;
  /** Node types of string literals: `+` beside one joins text, and `-` there would not compile. */
  text: Set<string>;
  /** Whether a node is an integer constant of the code (not of a type). */
  isConstant: (node: Node) => boolean;
}

/** Comparisons, arithmetic and conditions flipped in every language: the token, what it becomes, and the kind. */
export const COMMON_FLIPS: Record<string, [string, string]> = {
  '<': ['<=', 'comparison'],
  '<=': ['<', 'comparison'],
  '>': ['>=', 'comparison'],
  '>=': ['>', 'comparison'],
  '==': ['!=', 'comparison'],
  '!=': ['==', 'comparison'],
  '+': ['-', 'operator'],
  '-': ['+', 'operator'],
  '*': ['/', 'operator'],
  '/': ['*', 'operator'],
  '&&': ['||', 'condition'],
  '||': ['&&', 'condition'],
};

/** Single-token changes to behaviour under `root`: a comparison, an operator, a condition or an integer constant (0–1000, plus one). */
export async function flipSites(file: string, root: Node, rules: FlipRules): Promise<SourceChange[]> {
  const line = (n: Node) => n.startPosition.row + 1;
  const flips = await flatMapInTurns(await nodesWhereInTurns(root, (n) => n.type === 'binary_expression'), (expr): SourceChange[] => {
    const op = expr.childForFieldName('operator');
    const swap = op && rules.operators[op.type];
    if (!op || !swap) return [];
    if (op.type === '+' && [expr.childForFieldName('left'), expr.childForFieldName('right')].some((side) => side && rules.text.has(side.type))) return [];
    return [{ file, kind: swap[1], label: `${swap[1]} "${op.type}" → "${swap[0]}" at ${file}:${line(op)}`, start: op.startIndex, end: op.endIndex, text: swap[0] }];
  });
  const constants = await flatMapInTurns(await nodesWhereInTurns(root, rules.isConstant), (literal): SourceChange[] => {
    if (!/^(0|[1-9]\d*)$/.test(literal.text) || Number(literal.text) > 1000) return [];
    const value = Number(literal.text);
    return [{ file, kind: 'constant', label: `constant ${value} → ${value + 1} at ${file}:${line(literal)}`, start: literal.startIndex, end: literal.endIndex, text: String(value + 1) }];
  });
  return [...flips, ...constants];
}

/** A JavaScript or Go string literal's text without its quotes, or undefined for anything else (a template with substitutions). */
export function literalText(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'string' || node.type === 'interpreted_string_literal' || node.type === 'raw_string_literal') return node.text.slice(1, -1);
  if (node.type === 'template_string' && !node.namedChildren.some((c) => c?.type === 'template_substitution')) return node.text.slice(1, -1);
  return undefined;
}
