/**
 * Deleting named tests from their files through the files' syntax trees, as
 * the offline injector hides its bug and as FeatAdd's weakening does in Go
 * and TypeScript: each test goes whole, then the imports only it used. A test
 * that other test code calls (a Go test is a function of its package) cannot
 * go, for the code calling it would no longer compile: then nothing is
 * deleted and the callers are named.
 */
import { posix } from 'node:path';
import { applySplices, mergeDeletions, type Splice } from './syntax.js';

/** How a language's tests are found, used and tidied after (syntax-kit.ts's rules have these). */
export interface DeletionRules {
  /** A test's name, and its titles where its name joins several (a script's describe blocks and its own). */
  tests(file: string, source: string): { name: string; titles?: string[]; span: Splice }[];
  /** Where names are used in a file, declarations included. */
  uses(file: string, source: string, names: Set<string>): { name: string; at: number; line: number }[];
  /** Splices that keep a file compiling once tests are gone (the imports only they used): `source` is the file after, `before` the file before. */
  tidy(file: string, source: string, before: string): Splice[];
}

export interface FileDeletion {
  file: string;
  source: string;
  /** The names of the tests deleted. */
  doomed: string[];
  /** The tests' spans in `source`. */
  spans: Splice[];
  /** The source without them. */
  kept: string;
  /** The imports only they used, as spans of `kept`. */
  tidy: Splice[];
}

export type Deletion = { files: FileDeletion[] } | { used: string[] };

/**
 * Plans deleting, from each file of `doomed`, the tests its predicate picks by
 * name. `texts` holds every test file of the packages concerned (helpers that
 * declare no test too), for the callers: a file's tests may be called from
 * the test files of its own folder.
 */
export function planDeletion(rules: DeletionRules, texts: ReadonlyMap<string, string>, doomed: ReadonlyMap<string, (name: string) => boolean>): Deletion {
  const plans = [...doomed].flatMap(([file, picks]) => {
    const source = texts.get(file);
    if (source === undefined) return [];
    const tests = rules.tests(file, source).filter((t) => picks(t.name));
    return tests.length === 0 ? [] : [{ file, source, tests, spans: mergeDeletions(tests.map((t) => t.span)) }];
  });
  const used = plans.flatMap((plan) => {
    const names = new Set(plan.tests.map((t) => t.name));
    const dir = posix.dirname(plan.file);
    return [...texts.keys()]
      .filter((f) => posix.dirname(f) === dir)
      .flatMap((f) => {
        const deleted = plans.find((p) => p.file === f)?.spans ?? [];
        return rules
          .uses(f, texts.get(f) ?? '', names)
          .filter((u) => !deleted.some((s) => u.at >= s.start && u.at < s.end))
          .map((u) => `${u.name} (used at ${f}:${u.line})`);
      });
  });
  if (used.length > 0) return { used: [...new Set(used)] };
  return {
    files: plans.map(({ file, source, tests, spans }) => {
      const kept = applySplices(source, spans);
      return { file, source, doomed: tests.map((t) => t.name), spans, kept, tidy: tidied(rules.tidy(file, kept, source)) };
    }),
  };
}

/** Tidying splices made one where they delete and overlap (Go's import lines with their blank lines); a replacement stays as it is. */
function tidied(splices: Splice[]): Splice[] {
  return [...mergeDeletions(splices.filter((s) => s.text === '')), ...splices.filter((s) => s.text !== '')];
}

/** A file's text once its tests and then the imports only they used are gone. */
export function afterDeletion(deletion: FileDeletion): string {
  return applySplices(deletion.kept, deletion.tidy);
}
