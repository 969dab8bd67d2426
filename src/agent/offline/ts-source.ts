/**
 * The offline injector's reading of TypeScript and JavaScript source, on
 * tree-sitter's TypeScript grammar: function and method bodies that could go
 * (a body whose declared type needs a value returns the type's empty value;
 * one whose type has no obvious empty value is left alone, so the code still
 * compiles), small behaviour changes (comparisons, operators, conditions,
 * integer constants), and the tests of a test file as node's test runner
 * names them: the describe() names down to the it() or test(), joined by " > ".
 */
import type { Node } from 'web-tree-sitter';
import { COMMON_FLIPS, deletionSpan, flatMapInTurns, flipSites, indentAt, literalText, nodesWhere, nodesWhereInTurns, withTree, withTreeInTurns, type FlipRules, type SourceChange, type Splice } from './syntax.js';

/** What a body returns once emptied, by its declared type; null when the type has no obvious empty value. */
function emptyReturn(fn: Node): string | undefined | null {
  const annotation = fn.childForFieldName('return_type');
  if (!annotation) return undefined;
  const type = annotation.namedChildren[0];
  if (!type) return undefined;
  const text = type.text.replace(/\s+/g, ' ');
  if (text === 'void' || text === 'undefined' || text === 'Promise<void>') return undefined;
  if (text === 'number') return 'return 0;';
  if (text === 'string') return "return '';";
  if (text === 'boolean') return 'return false;';
  if (type.type === 'array_type' || /^(ReadonlyArray|Array)</.test(text)) return 'return [];';
  if (type.type === 'union_type') {
    const members = text.split('|').map((m) => m.trim());
    if (members.includes('null')) return 'return null;';
    if (members.includes('undefined')) return 'return undefined;';
  }
  return null;
}

function functionName(fn: Node): string {
  const own = fn.childForFieldName('name')?.text;
  if (own) {
    const owner = fn.type === 'method_definition' ? fn.parent?.parent?.childForFieldName('name')?.text : undefined;
    return owner ? `${owner}.${own}` : own;
  }
  return fn.parent?.type === 'variable_declarator' ? (fn.parent.childForFieldName('name')?.text ?? 'a function') : 'a function';
}

const FUNCTIONS = new Set(['function_declaration', 'method_definition', 'arrow_function', 'function_expression', 'function']);

/** Bodies worth removing: named functions and methods (not constructors or generators) with two lines of statements or more. */
export async function tsRemovals(file: string, source: string): Promise<SourceChange[]> {
  return (
    (await withTreeInTurns('typescript', file, source, async (root) =>
      flatMapInTurns(await nodesWhereInTurns(root, (n) => FUNCTIONS.has(n.type)), (fn): SourceChange[] => {
        const body = fn.childForFieldName('body');
        if (!body || body.type !== 'statement_block') return [];
        if (fn.type !== 'function_declaration' && fn.type !== 'method_definition' && fn.parent?.type !== 'variable_declarator') return [];
        if (fn.childForFieldName('name')?.text === 'constructor' || fn.children.some((c) => c?.type === '*')) return [];
        const statements = body.namedChildren.filter((c) => c && c.type !== 'comment');
        const lines = body.endPosition.row - body.startPosition.row - 1;
        if (statements.length === 0 || lines < 2) return [];
        const ret = emptyReturn(fn);
        if (ret === null) return [];
        const indent = indentAt(source, body.startIndex);
        const text = ret ? `{\n${indent}  ${ret}\n${indent}}` : `{\n${indent}}`;
        return [{ file, kind: 'removal', label: `the body of ${functionName(fn)} in ${file}`, start: body.startIndex, end: body.endIndex, text }];
      }),
    )) ?? []
  );
}

const TS_FLIPS: FlipRules = {
  operators: { ...COMMON_FLIPS, '===': ['!==', 'comparison'], '!==': ['===', 'comparison'] },
  text: new Set(['string', 'template_string']),
  isConstant: (n) => n.type === 'number' && n.parent?.type !== 'literal_type',
};

/** Single-token changes to behaviour: a comparison, an operator, a condition or an integer constant (not in types). */
export async function tsMutations(file: string, source: string): Promise<SourceChange[]> {
  return (await withTreeInTurns('typescript', file, source, (root) => flipSites(file, root, TS_FLIPS))) ?? [];
}

const SUITES = new Set(['describe', 'suite']);
const CASES = new Set(['it', 'test']);

/** The name a describe/it/test call gives, and whether it is a suite; undefined for other calls. */
function testCall(statement: Node): { name: string; suite: boolean; body: Node | undefined } | undefined {
  const call = statement.type === 'expression_statement' ? statement.namedChildren[0] : undefined;
  if (call?.type !== 'call_expression') return undefined;
  const callee = call.childForFieldName('function')?.text ?? '';
  if (!SUITES.has(callee) && !CASES.has(callee)) return undefined;
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  const name = literalText(args[0]);
  if (name === undefined) return undefined;
  const fn = args.find((a) => a?.type === 'arrow_function' || a?.type === 'function_expression' || a?.type === 'function');
  const body = fn?.childForFieldName('body');
  return { name, suite: SUITES.has(callee), body: body?.type === 'statement_block' ? body : undefined };
}

/** The tests of a file, each with its id (suite names and its own, joined by " > "), those titles, and the span that deleting it removes. */
export function tsTests(file: string, source: string): { name: string; titles: string[]; span: Splice }[] {
  return (
    withTree('typescript', file, source, (root) => {
      const found: { name: string; titles: string[]; span: Splice }[] = [];
      const visit = (list: Node, path: string[]) => {
        for (const statement of list.namedChildren) {
          const call = statement && testCall(statement);
          if (!statement || !call) continue;
          const id = [...path, call.name];
          if (call.suite) {
            if (call.body) visit(call.body, id);
          } else found.push({ name: id.join(' > '), titles: id, span: deletionSpan(source, statement) });
        }
      };
      visit(root, []);
      return found;
    }) ?? []
  );
}
