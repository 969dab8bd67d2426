/**
 * The shape of src/ read from its imports: the Docker API stays behind the
 * engine port (only src/sandbox/docker-api/ imports dockerode), and no file
 * imports itself back through others.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The modules a file imports or re-exports (static and dynamic), as written. */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push((match[1] ?? match[2])!);
  }
  return found;
}

const files = sourceFiles(SRC);
const graph = new Map(
  files.map((file) => {
    const local = importsOf(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(dirname(file), spec).replace(/\.js$/, ''))
      .map((base) => files.find((f) => f === `${base}.ts` || f === `${base}.tsx`))
      .filter((f): f is string => f !== undefined);
    return [file, local] as const;
  }),
);

/** Every cycle's files, each cycle once (Tarjan's strongly connected components). */
function cycles(): string[][] {
  let index = 0;
  const indexes = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    indexes.set(file, index);
    low.set(file, index++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!indexes.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, indexes.get(next)!));
    }
    if (low.get(file) === indexes.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(relative(SRC, member));
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of files) if (!indexes.has(file)) visit(file);
  return found;
}

describe('the shape of src/', () => {
  it('reads imports as written, dynamic ones too', () => {
    expect(importsOf("import type Docker from 'dockerode';\nexport { a } from './a.js';\nconst m = await import('./b.js');")).toEqual(['dockerode', './a.js', './b.js']);
  });

  it('keeps dockerode behind the engine port: only src/sandbox/docker-api/ imports it', () => {
    const outside = files.filter((file) => !relative(SRC, file).startsWith('sandbox/docker-api/') && importsOf(readFileSync(file, 'utf8')).includes('dockerode'));
    expect(outside.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('has no circle of imports between files', () => {
    expect(cycles()).toEqual([]);
  });
});
