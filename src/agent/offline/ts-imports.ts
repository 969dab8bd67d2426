/**
 * The imports of a TypeScript or JavaScript file that only deleted tests used,
 * as splices that delete them: left, they would fail a build with
 * noUnusedLocals and show a solver what the deleted tests exercised. A name
 * counts as used wherever an identifier of that text appears outside the
 * imports (a property of the same name too: keeping an import is always
 * safe). Side-effect imports (`import './setup'`) and files that do not parse
 * are left alone.
 */
import type { Node } from 'web-tree-sitter';
import { deletionSpan, lineStart, nodesWhere, withTree, type Splice } from './syntax.js';

/** JavaScript, where an import is loaded as written. */
const SCRIPT = /\.(js|jsx|mjs|cjs)$/;

const REFERENCES = new Set(['identifier', 'type_identifier', 'shorthand_property_identifier', 'property_identifier', 'shorthand_property_identifier_pattern']);

/** An import's bindings: the default one, the named ones (by their local names), a namespace. */
interface Bindings {
  defaultName?: Node;
  named?: Node;
  specifiers: { node: Node; local: string }[];
  namespace?: Node;
}

function bindingsOf(clause: Node): Bindings {
  const found: Bindings = { specifiers: [] };
  for (const child of clause.namedChildren) {
    if (!child) continue;
    if (child.type === 'identifier') found.defaultName = child;
    else if (child.type === 'namespace_import') found.namespace = child;
    else if (child.type === 'named_imports') {
      found.named = child;
      for (const spec of child.namedChildren) {
        if (spec?.type !== 'import_specifier') continue;
        const local = (spec.childForFieldName('alias') ?? spec.childForFieldName('name'))?.text;
        if (local) found.specifiers.push({ node: spec, local });
      }
    }
  }
  return found;
}

/** Whether each specifier starts a line of its own: then an unused one goes with its whole line (its comma and its comment). */
function oneALine(source: string, specifiers: { node: Node }[]): boolean {
  return specifiers.every((s) => source.slice(lineStart(source, s.node.startIndex), s.node.startIndex).trim() === '');
}

/** Splices deleting the unused specifiers of `{ a, b, c }` when some stay: each run of unused ones goes with the comma that joins it to a kept one. */
function unusedSpecifiers(source: string, specifiers: { node: Node; local: string }[], keeps: (name: string) => boolean): Splice[] {
  const splices: Splice[] = [];
  const byLine = oneALine(source, specifiers);
  for (let i = 0; i < specifiers.length; i++) {
    if (keeps(specifiers[i]!.local)) continue;
    let j = i;
    while (j + 1 < specifiers.length && !keeps(specifiers[j + 1]!.local)) j++;
    const next = specifiers[j + 1];
    if (byLine) {
      const newline = source.indexOf('\n', specifiers[j]!.node.endIndex);
      splices.push({ start: lineStart(source, specifiers[i]!.node.startIndex), end: newline < 0 ? source.length : newline + 1, text: '' });
    } else if (next) splices.push({ start: specifiers[i]!.node.startIndex, end: next.node.startIndex, text: '' });
    else splices.push({ start: specifiers[i - 1]!.node.endIndex, end: specifiers[j]!.node.endIndex, text: '' });
    i = j;
  }
  return splices;
}

const importsOf = (root: Node) => root.namedChildren.filter((c): c is Node => c?.type === 'import_statement');

/** The names a file's code (its tree's `root`) refers to outside its imports. */
function namesUsed(root: Node): Set<string> {
  const imports = importsOf(root);
  const inImports = (n: Node) => imports.some((i) => n.startIndex >= i.startIndex && n.endIndex <= i.endIndex);
  return new Set(nodesWhere(root, (n) => REFERENCES.has(n.type) && !inImports(n)).map((n) => n.text));
}

/**
 * Splices deleting the imports of `source` whose names its code no longer
 * uses, and (given `before`, the file before the tests went) used there: an
 * import unused already is used some way no syntax tree shows (React under
 * JSX's classic runtime, a JSX pragma's factory) and stays. In a JavaScript
 * file an import of which nothing stays becomes a side-effect import, since
 * loading the module may matter; TypeScript drops such imports when it
 * compiles, so there it goes.
 */
export function tsUnusedImports(file: string, source: string, before?: string): Splice[] {
  const usedBefore = before === undefined ? undefined : withTree('typescript', file, before, namesUsed);
  if (before !== undefined && usedBefore === undefined) return [];
  return (
    withTree('typescript', file, source, (root) => {
      const imports = importsOf(root);
      const usedNow = namesUsed(root);
      const keeps = (name: string) => usedNow.has(name) || (usedBefore !== undefined && !usedBefore.has(name));
      const splices: Splice[] = [];
      for (const statement of imports) {
        const clause = statement.namedChildren.find((c) => c?.type === 'import_clause');
        if (!clause) continue;
        const b = bindingsOf(clause);
        const keepDefault = b.defaultName !== undefined && keeps(b.defaultName.text);
        const keepNamespace = b.namespace !== undefined && nodesWhere(b.namespace, (n) => n.type === 'identifier').some((n) => keeps(n.text));
        const keptNamed = b.specifiers.filter((s) => keeps(s.local));
        if (!keepDefault && !keepNamespace && keptNamed.length === 0) {
          // Nothing it binds is used (an import of no bindings, `import {} from`, is left as written).
          if (!b.defaultName && !b.namespace && b.specifiers.length === 0) continue;
          const from = statement.childForFieldName('source')?.text;
          if (SCRIPT.test(file) && from) splices.push({ start: statement.startIndex, end: statement.endIndex, text: `import ${from};` });
          else splices.push(deletionSpan(source, statement));
          continue;
        }
        if (b.defaultName && !keepDefault) splices.push({ start: b.defaultName.startIndex, end: (b.named ?? b.namespace)!.startIndex, text: '' });
        // `import x, { a } from` or `import x, * as ns from` with only x used: ", { a }" or ", * as ns" goes.
        if (b.namespace && b.defaultName && !keepNamespace) splices.push({ start: b.defaultName.endIndex, end: b.namespace.endIndex, text: '' });
        if (b.named && b.defaultName && b.specifiers.length > 0 && keptNamed.length === 0) splices.push({ start: b.defaultName.endIndex, end: b.named.endIndex, text: '' });
        else if (keptNamed.length < b.specifiers.length) splices.push(...unusedSpecifiers(source, b.specifiers, keeps));
      }
      return splices;
    }) ?? []
  );
}
