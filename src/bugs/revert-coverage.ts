/**
 * Which failing tests a revert run observes as the buggy state has them,
 * decided before it runs, so that the run is evidence for determinism like the
 * weakened run (evidence.ts): in a Go module, a test whose package reaches the
 * reverted file's package through none of the module's imports cannot see the
 * revert, and fails there exactly as in a rerun of the buggy state.
 *
 * The imports are read as the module's own import paths written anywhere in
 * its .go files (test files and the bug's added lines included), which can
 * only add dependencies: a test is covered only when no chain of them leads to
 * the reverted package. Anything else covers nothing: a reverted file that is
 * not Go source of one of the module's own packages (vendor/, testdata/, a
 * nested module, go.work), a test whose id does not name its package, a bug on
 * a parent patch, an answer the command could not give whole.
 */
import { posix } from 'node:path';

/** A Go module's packages (folders relative to its root, '' for the root) and the module packages each imports. */
export interface GoImports {
  module: string;
  imports: Map<string, Set<string>>;
}

/** The command (run at the repository root) whose output `readGoImports` reads: the module path, how many go.mod/go.work files there are, and every line of a .go file at `base` that names a module package. */
export function goImportsCommand(base: string): string {
  const rev = `'${base.replace(/'/g, '')}'`;
  return [
    `mod=$(git show ${rev}:go.mod 2>/dev/null | awk '$1 == "module" { gsub(/"/, "", $2); print $2; exit }')`,
    '[ -n "$mod" ] || { echo none; exit 0; }',
    'echo "module $mod"',
    `echo "gomods $(git ls-tree -r --name-only ${rev} | grep -c -E '(^|/)go\\.(mod|work)$')"`,
    `git grep -z -I -F "\\"$mod" ${rev} -- '*.go' || true`,
  ].join('\n');
}

const isPackageDir = (dir: string) => !dir.split('/').some((part) => part === 'vendor' || part === 'testdata' || part.startsWith('.') || part.startsWith('_'));

/** A pattern of the module's import paths in quotes, its package (after the module path) captured: `"example.com/m/lru"` → `/lru`. */
function importPattern(module: string): RegExp {
  return new RegExp(`"${module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/[^"\\s]*)?"`, 'g');
}

/**
 * The module's import graph from `goImportsCommand`'s output, with the imports
 * the bug's diff adds; undefined when there is no single module at the root.
 */
export function readGoImports(output: string, base: string, bugDiff: string): GoImports | undefined {
  const lines = output.split('\n');
  const module = /^module (\S+)$/.exec(lines[0] ?? '')?.[1];
  if (!module || lines[1] !== 'gomods 1') return undefined;
  const imports = new Map<string, Set<string>>();
  const pattern = importPattern(module);
  const add = (file: string, text: string) => {
    const from = posix.dirname(file) === '.' ? '' : posix.dirname(file);
    for (const match of text.matchAll(pattern)) {
      const to = (match[1] ?? '').replace(/^\//, '');
      if (to !== from) (imports.get(from) ?? imports.set(from, new Set()).get(from)!).add(to);
    }
  };
  for (const line of lines.slice(2)) {
    const at = line.indexOf('\0');
    if (at < 0 || !line.startsWith(`${base}:`)) continue;
    add(line.slice(base.length + 1, at), line.slice(at + 1));
  }
  let file: string | undefined;
  for (const line of bugDiff.split('\n')) {
    if (line.startsWith('+++ ')) file = line === '+++ /dev/null' ? undefined : line.slice(4).replace(/^b\//, '');
    else if (file?.endsWith('.go') && line.startsWith('+')) add(file, line);
  }
  return { module, imports };
}

/**
 * The folder of the package a test id names (`example.com/m/lru/TestKeys/sub`
 * or `example.com/m/lru::TestKeys` → `lru`), if it names one of the module's.
 */
export function testPackage(id: string, module: string): string | undefined {
  let pkg: string;
  if (id.includes('::')) pkg = id.slice(0, id.indexOf('::'));
  else {
    const parts = id.split('/');
    // Go's rule for test functions: the word after Test is not lower case.
    const at = parts.findIndex((part, i) => i > 0 && /^(Test|Example|Benchmark|Fuzz)([^a-z]|$)/.test(part));
    if (at < 0) return undefined;
    pkg = parts.slice(0, at).join('/');
  }
  if (pkg === module) return '';
  return pkg.startsWith(`${module}/`) ? pkg.slice(module.length + 1) : undefined;
}

/** Every package `from` reaches through the module's imports, itself included. */
function reach(graph: GoImports, from: string): Set<string> {
  const seen = new Set([from]);
  const todo = [from];
  while (todo.length > 0) {
    for (const next of graph.imports.get(todo.pop()!) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
    }
  }
  return seen;
}

/**
 * The failing tests the run with one file put back observes unchanged, or
 * undefined when it cannot say. `paths` are the file's paths before and after
 * the bug (both, for a file the bug moved: putting it back touches both
 * packages).
 */
export function revertCovers(graph: GoImports, paths: string[]): ((id: string) => boolean) | undefined {
  if (paths.length === 0 || paths.some((path) => !path.endsWith('.go') || path.endsWith('_test.go'))) return undefined;
  const dirs = [...new Set(paths.map((path) => (posix.dirname(path) === '.' ? '' : posix.dirname(path))))];
  if (!dirs.every(isPackageDir)) return undefined;
  const reached = new Map<string, boolean>();
  return (id) => {
    const pkg = testPackage(id, graph.module);
    if (pkg === undefined || !isPackageDir(pkg)) return false;
    if (!reached.has(pkg)) {
      const seen = reach(graph, pkg);
      reached.set(pkg, dirs.some((dir) => seen.has(dir)));
    }
    return !reached.get(pkg)!;
  };
}
