/**
 * What one ecosystem's convention says about the files of its tests: by name
 * (a conftest.py, a *_test.go, anything under src/test/), and, for files that
 * mix test setup with other things, which parts of their content belong to
 * the tests (package.json's test script, a Rust #[cfg(test)] module).
 */
import { posix } from 'node:path';

/**
 * The parts of one file that belong to the tests, each under the reason a
 * person is shown when it changes ("#[cfg(test)] mod tests"). Parts with the
 * same reason are joined in the order of the file.
 */
export type TestParts = Map<string, string>;

export interface TestConvention {
  name: string;
  /** Why `path` belongs to the tests by its name alone, or undefined. */
  byPath(path: string): string | undefined;
  /** Whether `path` is named as a module of tests (rather than a helper, fixture or configuration). */
  isTestModule(path: string): boolean;
  /** Whether some of `path`'s content may belong to the tests, so only its content can tell. */
  mayHoldTests?(path: string): boolean;
  /** Loads what testParts needs (a grammar), once; awaited before testParts is first called. */
  load?(): Promise<void>;
  /** The parts of `text` (the content of `path`) that belong to the tests; empty when none. */
  testParts?(path: string, text: string): TestParts;
}

export function baseName(path: string): string {
  return posix.basename(path);
}

/** The folders `path` lies in, outermost first. */
export function foldersOf(path: string): string[] {
  return path.split('/').slice(0, -1);
}

/** Adds `text` to the part of `parts` kept under `reason`. */
export function addPart(parts: TestParts, reason: string, text: string): void {
  const before = parts.get(reason);
  parts.set(reason, before === undefined ? text : `${before}\n\u0000\n${text}`);
}
