/**
 * The test parts of a Rust source file, read with tree-sitter's Rust grammar
 * (so strings, raw strings, chars, lifetimes and nested comments never
 * confuse where an item ends):
 *   - items compiled only into tests: `#[cfg(test)]` (or `cfg(all(test, …))`)
 *     modules, functions, impls, `use`s…, and a file or module whose inner
 *     attribute is `#![cfg(test)]`;
 *   - test functions outside them (`#[test]`, `#[tokio::test]`, `#[bench]`…);
 *   - attributes applied only in tests (`#[cfg_attr(test, …)]`);
 *   - doctests: the Rust code blocks of doc comments, which `cargo test` runs.
 * The grammar is WebAssembly and loads asynchronously: loadRustGrammar()
 * must have finished before rustTestParts() is called.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Node } from 'web-tree-sitter';
import { addPart, type TestParts } from './convention.js';

let parser: Parser | undefined;
let loading: Promise<void> | undefined;

/** Loads the grammar once; a failed load is tried again by the next call. */
export function loadRustGrammar(): Promise<void> {
  loading ??= (async () => {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve('tree-sitter-rust/tree-sitter-rust.wasm');
    const next = new Parser();
    next.setLanguage(await Language.load(wasm));
    parser = next;
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** A cfg predicate: `test`, `feature = "x"`, `all(…)`. */
interface Predicate {
  name: string;
  args: Predicate[];
}

/** The predicates of a parenthesized list such as `(all(test, unix), foo)`; whatever does not parse is left out. */
function predicates(text: string): Predicate[] {
  const tokens = text.match(/[A-Za-z_][\w:]*|"(?:[^"\\]|\\.)*"|[(),=]/g) ?? [];
  let i = 0;
  const list = (): Predicate[] => {
    const out: Predicate[] = [];
    if (tokens[i] !== '(') return out;
    i++;
    while (i < tokens.length && tokens[i] !== ')') {
      const name = tokens[i++]!;
      const args = tokens[i] === '(' ? list() : [];
      if (tokens[i] === '=') i += 2;
      out.push({ name, args });
      if (tokens[i] === ',') i++;
    }
    i++;
    return out;
  };
  return list();
}

/** Whether an item under `cfg(predicate)` is compiled only when testing. */
function onlyInTests(predicate: Predicate): boolean {
  if (predicate.name === 'test') return predicate.args.length === 0;
  if (predicate.name === 'all') return predicate.args.some(onlyInTests);
  if (predicate.name === 'any') return predicate.args.length > 0 && predicate.args.every(onlyInTests);
  return false;
}

/** Attributes that make a function a test or benchmark. */
const TEST_ATTRIBUTES = new Set(['test', 'bench', 'rstest', 'test_case', 'wasm_bindgen_test', 'quickcheck']);

type AttributeKind = 'cfg-test' | 'test' | 'cfg-attr-test' | undefined;

function attributeKind(item: Node): AttributeKind {
  const attribute = item.namedChildren.find((c) => c?.type === 'attribute');
  const path = attribute?.namedChildren[0]?.text;
  if (!attribute || path === undefined) return undefined;
  const args = attribute.childForFieldName('arguments')?.text ?? '';
  if (path === 'cfg') return predicates(args).some(onlyInTests) ? 'cfg-test' : undefined;
  if (path === 'cfg_attr') {
    const first = predicates(args)[0];
    return first && onlyInTests(first) ? 'cfg-attr-test' : undefined;
  }
  if (TEST_ATTRIBUTES.has(path) || path.endsWith('::test')) return 'test';
  return undefined;
}

const KEYWORDS: Record<string, string> = {
  mod_item: 'mod',
  function_item: 'fn',
  impl_item: 'impl',
  struct_item: 'struct',
  enum_item: 'enum',
  union_item: 'union',
  trait_item: 'trait',
  const_item: 'const',
  static_item: 'static',
  type_item: 'type',
  use_declaration: 'use',
  macro_definition: 'macro_rules!',
};

/** "mod tests", "fn helper", "impl Foo", "use super::*". */
function label(item: Node): string {
  const keyword = KEYWORDS[item.type];
  if (item.type === 'use_declaration') return item.text.replace(/\s+/g, ' ').replace(/;$/, '');
  const name = item.childForFieldName('name') ?? item.childForFieldName('type') ?? item.childForFieldName('macro');
  const shown = [keyword ?? item.type.replace(/_item$/, ''), name?.text.replace(/\s+/g, ' ')].filter(Boolean).join(' ');
  return item.type === 'macro_invocation' ? `${name?.text ?? 'a macro'}!` : shown;
}

const short = (text: string) => {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
};

const BODIED = new Set(['mod_item', 'impl_item', 'trait_item', 'foreign_mod_item']);
const isComment = (node: Node) => node.type === 'line_comment' || node.type === 'block_comment';
const docOf = (node: Node) => (isComment(node) && (node.childForFieldName('outer') || node.childForFieldName('inner')) ? node.childForFieldName('doc') : null);

/** Words of a code block's info string that still make it a Rust doctest. */
const DOCTEST_WORDS = new Set(['rust', 'ignore', 'should_panic', 'no_run', 'compile_fail', 'test_harness', 'standalone_crate', 'allow_fail']);

/** The Rust code blocks of one doc comment (its lines joined). */
function doctests(doc: string): string[] {
  const blocks: string[] = [];
  let fence: string | undefined;
  let block: string[] = [];
  let rust = false;
  for (const raw of doc.split('\n')) {
    const line = raw.trim();
    if (fence === undefined) {
      const open = /^(`{3,}|~{3,})(.*)$/.exec(line);
      if (!open) continue;
      fence = open[1]!;
      const words = open[2]!.split(/[\s,{}.]+/).filter((w) => w !== '');
      rust = words.every((w) => DOCTEST_WORDS.has(w) || /^edition\d+$/.test(w) || /^E\d{4}$/.test(w)) || words.includes('rust');
      block = [];
    } else if (line.startsWith(fence)) {
      if (rust) blocks.push(block.join('\n'));
      fence = undefined;
    } else {
      block.push(line);
    }
  }
  return blocks;
}

/** Adds the test parts found among the children of `list` (a source file or an item's body). */
function scanList(list: Node, source: string, parts: TestParts): void {
  let attributes: Node[] = [];
  let doc: string[] = [];
  const flushDoc = () => {
    for (const block of doctests(doc.join(''))) addPart(parts, 'a doctest', block);
    doc = [];
  };
  for (const child of list.children) {
    if (!child) continue;
    const docText = docOf(child);
    if (docText) {
      // A block doc comment's lines may start with ` * `, which is not part of the text.
      const lines = child.type === 'block_comment' ? docText.text.replace(/^[ \t]*\*/gm, '') : docText.text;
      doc.push(lines.endsWith('\n') ? lines : `${lines}\n`);
      continue;
    }
    if (isComment(child) || child.type === 'inner_attribute_item' || !child.isNamed) continue;
    flushDoc();
    if (child.type === 'attribute_item') {
      attributes.push(child);
      continue;
    }
    scanItem(child, attributes, source, parts);
    attributes = [];
  }
  flushDoc();
}

/** Adds `item` (with the outer attributes before it) if it belongs to the tests, else looks inside its body. */
function scanItem(item: Node, attributes: Node[], source: string, parts: TestParts): void {
  const text = () => source.slice((attributes[0] ?? item).startIndex, item.endIndex);
  const kinds = attributes.map(attributeKind);
  const cfg = attributes[kinds.indexOf('cfg-test')];
  if (cfg) return addPart(parts, `${short(cfg.text)} ${label(item)}`, text());
  const test = attributes[kinds.indexOf('test')];
  if (test) return addPart(parts, `${short(test.text)} ${label(item)}`, text());
  for (const [i, attribute] of attributes.entries()) {
    if (kinds[i] === 'cfg-attr-test') addPart(parts, `${short(attribute.text)} on ${label(item)}`, attribute.text);
  }
  const body = BODIED.has(item.type) ? item.childForFieldName('body') : null;
  if (!body) return;
  const inner = body.children.find((c) => c?.type === 'inner_attribute_item' && attributeKind(c) === 'cfg-test');
  if (inner) return addPart(parts, `${short(inner.text)} ${label(item)}`, text());
  scanList(body, source, parts);
}

/** The test parts of a Rust file; loadRustGrammar() must have finished. */
export function rustTestParts(text: string): TestParts {
  if (!parser) throw new Error('the Rust grammar is not loaded: await loadRustGrammar() first');
  const parts: TestParts = new Map();
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter gave no syntax tree for a Rust file');
  try {
    const root = tree.rootNode;
    const inner = root.children.find((c) => c?.type === 'inner_attribute_item' && attributeKind(c) === 'cfg-test');
    if (inner) addPart(parts, `${short(inner.text)} (the whole file)`, text);
    else scanList(root, text, parts);
  } finally {
    tree.delete();
  }
  return parts;
}
