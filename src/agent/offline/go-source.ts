/**
 * The offline injector's reading of Go source, on tree-sitter's Go grammar:
 * function and method bodies that could go (the body becomes a return of the
 * zero values the signature asks for, so the package still compiles), small
 * behaviour changes (comparisons, operators, conditions, integer constants),
 * the test functions of a _test.go file, and the imports a file no longer
 * uses once tests are deleted (Go refuses to compile those).
 */
import type { Node } from 'web-tree-sitter';
import { COMMON_FLIPS, deletionSpan, flatMapInTurns, flipSites, indentAt, literalText, nodesWhere, nodesWhereInTurns, withTree, withTreeInTurns, type FlipRules, type SourceChange, type Splice } from './syntax.js';

const NUMERIC = /^(u?int(8|16|32|64)?|uintptr|byte|rune|float(32|64)|complex(64|128))$/;
const NIL_TYPES = new Set(['pointer_type', 'slice_type', 'map_type', 'channel_type', 'function_type', 'interface_type']);

/** The zero value of a Go type, as an expression. */
function zeroValue(type: Node): string {
  const text = type.text;
  if (type.type === 'type_identifier' || type.type === 'identifier') {
    if (NUMERIC.test(text)) return '0';
    if (text === 'string') return '""';
    if (text === 'bool') return 'false';
    if (text === 'error' || text === 'any') return 'nil';
  }
  if (NIL_TYPES.has(type.type)) return 'nil';
  return `*new(${text})`;
}

/** The statement that ends an emptied body: nothing, a bare return (named results), or the zero values. */
function emptyReturn(fn: Node): string | undefined {
  const result = fn.childForFieldName('result');
  if (!result) return undefined;
  if (result.type !== 'parameter_list') return `return ${zeroValue(result)}`;
  const declarations = result.namedChildren.filter((c): c is Node => c?.type === 'parameter_declaration');
  if (declarations.some((d) => d.childForFieldName('name'))) return 'return';
  return `return ${declarations.map((d) => zeroValue(d.childForFieldName('type')!)).join(', ')}`;
}

function functionName(fn: Node): string {
  const name = fn.childForFieldName('name')?.text ?? '?';
  const receiver = fn.childForFieldName('receiver');
  const type = receiver ? /([A-Za-z_]\w*)(\[[^\]]*\])?\s*\)$/.exec(receiver.text)?.[1] : undefined;
  return type ? `${type}.${name}` : name;
}

/** Bodies worth removing: at least two lines of statements that are not already a bare return. */
export async function goRemovals(file: string, source: string): Promise<SourceChange[]> {
  return (
    (await withTreeInTurns('go', file, source, async (root) =>
      flatMapInTurns(await nodesWhereInTurns(root, (n) => n.type === 'function_declaration' || n.type === 'method_declaration'), (fn): SourceChange[] => {
        const body = fn.childForFieldName('body');
        const statements = body?.namedChildren.find((c) => c?.type === 'statement_list');
        if (!body || !statements || statements.endPosition.row - statements.startPosition.row < 1) return [];
        const indent = indentAt(source, fn.startIndex);
        const ret = emptyReturn(fn);
        const text = ret ? `{\n${indent}\t${ret}\n${indent}}` : `{\n${indent}}`;
        return [{ file, kind: 'removal', label: `the body of ${functionName(fn)} in ${file}`, start: body.startIndex, end: body.endIndex, text }];
      }),
    )) ?? []
  );
}

const GO_FLIPS: FlipRules = {
  operators: COMMON_FLIPS,
  text: new Set(['interpreted_string_literal', 'raw_string_literal']),
  isConstant: (n) => n.type === 'int_literal',
};

/** Single-token changes to behaviour: a comparison, an operator, a condition or an integer constant. */
export async function goMutations(file: string, source: string): Promise<SourceChange[]> {
  return (await withTreeInTurns('go', file, source, (root) => flipSites(file, root, GO_FLIPS))) ?? [];
}

/** The name `go test` reports for a function of a _test.go file, if it runs it. */
const TEST_FUNCTION = /^(Test|Benchmark|Fuzz|Example)([^a-z].*)?$/;

/** The top-level test functions of a _test.go file, with the span that deleting each one removes. */
export function goTests(file: string, source: string): { name: string; span: Splice }[] {
  return (
    withTree('go', file, source, (root) =>
      root.namedChildren.flatMap((node) => {
        const name = node?.type === 'function_declaration' ? node.childForFieldName('name')?.text : undefined;
        if (!node || !name || !TEST_FUNCTION.test(name)) return [];
        return [{ name, span: deletionSpan(source, node) }];
      }),
    ) ?? []
  );
}

/** Where the names are used in a Go file (called, passed as a value), declarations included: each use's name, offset and line. */
export function goUses(file: string, source: string, names: Set<string>): { name: string; at: number; line: number }[] {
  return (
    withTree('go', file, source, (root) =>
      nodesWhere(root, (n) => n.type === 'identifier' && names.has(n.text)).map((n) => ({ name: n.text, at: n.startIndex, line: n.startPosition.row + 1 })),
    ) ?? []
  );
}

/** The name an import binds: its alias, or the last element of its path. */
function importName(spec: Node): string | undefined {
  const alias = spec.childForFieldName('name');
  if (alias) return alias.type === 'package_identifier' ? alias.text : undefined;
  const path = literalText(spec.childForFieldName('path')) ?? '';
  const last = path.split('/').filter((p) => !/^v\d+$/.test(p)).at(-1) ?? '';
  return last.replace(/^go-/, '').replace(/[.-].*$/, '');
}

/** The splices that delete the imports nothing in the file refers to any more (blank and dot imports stay). */
export function goUnusedImports(file: string, source: string): Splice[] {
  return (
    withTree('go', file, source, (root) => {
      const used = new Set<string>();
      for (const n of nodesWhere(root, (n) => n.type === 'selector_expression' || n.type === 'qualified_type')) {
        const qualifier = n.type === 'selector_expression' ? n.childForFieldName('operand') : n.childForFieldName('package');
        if (qualifier && (qualifier.type === 'identifier' || qualifier.type === 'package_identifier')) used.add(qualifier.text);
      }
      const splices: Splice[] = [];
      for (const declaration of root.namedChildren.filter((c): c is Node => c?.type === 'import_declaration')) {
        const specs = nodesWhere(declaration, (n) => n.type === 'import_spec');
        const unused = specs.filter((s) => {
          const name = importName(s);
          return name !== undefined && !used.has(name);
        });
        if (unused.length === 0) continue;
        if (unused.length === specs.length) splices.push(deletionSpan(source, declaration));
        else for (const s of unused) splices.push(deletionSpan(source, s));
      }
      return splices;
    }) ?? []
  );
}
