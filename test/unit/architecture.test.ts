/**
 * The shape of src/ read from its imports: the Docker API stays behind the
 * engine port (only src/sandbox/docker-api/ imports dockerode), no file
 * imports itself back through others, and no lower layer imports a higher
 * one. And the run's path reads as issue 32 asks: placement confirms its own
 * steps, and no function on it takes more than three parameters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
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

  it('imports only from its own layer or a lower one', () => {
    const wrong = [...graph].flatMap(([file, imports]) =>
      imports.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${relative(SRC, file)} (${domainOf(file)}) → ${relative(SRC, target)} (${domainOf(target)})`),
    );
    expect(wrong).toEqual([]);
  });

  it('sees a lower layer importing a higher one', () => {
    expect(layerOf(join(SRC, 'cluster/slurm/api.ts'))).toBeLessThan(layerOf(join(SRC, 'training/types.ts')));
    expect(layerOf(join(SRC, 'datasets/task-scripts.ts'))).toBeLessThan(layerOf(join(SRC, 'pipeline/inject.ts')));
    expect(layerOf(join(SRC, 'pipeline/inject.ts'))).toBeLessThan(layerOf(join(SRC, 'ui/app.tsx')));
  });

  it('leaves confirming a step on an engine to the placement: no domain code calls confirm', () => {
    const calls = files.filter((file) => !file.endsWith('pipeline/placement.ts') && /\.confirm\(/.test(readFileSync(file, 'utf8')));
    expect(calls.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('gives no function on the run\'s path more than three parameters', () => {
    expect(RUN_PATH.flatMap((file) => wideFunctions(join(SRC, file)))).toEqual([]);
    expect(wideFunctions(join(SRC, '..', 'test/unit/architecture.test.ts'), 'function four(a: number, b: number, c: number, d: number) {}')).toEqual(['architecture.test.ts: four takes 4']);
  });
});

/** The layers of src/, lowest first: a file may import its own layer's files and lower ones (cli.ts, the entry, is above all). */
const LAYERS: string[][] = [['(root)'], ['sandbox'], ['bugs'], ['agent', 'store'], ['cluster'], ['datasets'], ['training'], ['pipeline'], ['ui'], ['commands'], ['cli.ts']];

function domainOf(file: string): string {
  const path = relative(SRC, file);
  if (path === 'cli.ts') return 'cli.ts';
  return path.includes('/') ? path.split('/')[0]! : '(root)';
}

function layerOf(file: string): number {
  const domain = domainOf(file);
  const layer = LAYERS.findIndex((names) => names.includes(domain));
  if (layer < 0) throw new Error(`src/${domain} is in no layer of architecture.test.ts: add it where it belongs`);
  return layer;
}

/** The files an injection or solve run goes through, from its one entry to the steps on its engines. */
const RUN_PATH = [
  'pipeline/start-injection.ts',
  'pipeline/inject.ts',
  'pipeline/inject-settings.ts',
  'pipeline/inject-rollout.ts',
  'pipeline/run-scope.ts',
  'pipeline/run-orchestrator.ts',
  'pipeline/run-engines.ts',
  'pipeline/pool.ts',
  'pipeline/placement.ts',
  'pipeline/cluster-run.ts',
  'pipeline/cluster-follow.ts',
  'pipeline/injectors.ts',
  'pipeline/analysis.ts',
  'pipeline/solve.ts',
];

/** Functions (declared, methods, arrows) with more than three parameters, as "file: name takes N". */
function wideFunctions(path: string, text = readFileSync(path, 'utf8')): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const wide: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && node.parameters.length > 3) {
      const name = 'name' in node && node.name ? node.name.getText(source) : `(a function at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1})`;
      wide.push(`${path.split('/').at(-1)}: ${name} takes ${node.parameters.length}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return wide;
}
