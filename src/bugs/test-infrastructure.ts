/**
 * Which files of a repository belong to its tests even when test_files.txt
 * does not list them: the files a test runner reads to decide what runs and
 * how, and the parts of shared files that do so. A bug that edits one can
 * fail tests without touching the library, and its "fix" is to undo a test
 * change, so bug_inject.diff must leave them alone.
 *
 * Each ecosystem's convention is one entry of CONVENTIONS, in its own file
 * under test-infrastructure/; the shared test folders (test/, tests/,
 * testing/) come last, so a more specific reason wins. Adding a language is
 * adding one convention here.
 */
import type { TestConvention, TestParts } from './test-infrastructure/convention.js';
import { CMAKE_CONVENTION } from './test-infrastructure/cmake.js';
import { FOLDERS_CONVENTION } from './test-infrastructure/folders.js';
import { GO_CONVENTION } from './test-infrastructure/go.js';
import { JAVA_CONVENTION } from './test-infrastructure/java.js';
import { JAVASCRIPT_CONVENTION } from './test-infrastructure/javascript.js';
import { PHP_CONVENTION } from './test-infrastructure/php.js';
import { PYTEST_CONVENTION } from './test-infrastructure/pytest.js';
import { RUBY_CONVENTION } from './test-infrastructure/ruby.js';
import { RUST_CONVENTION } from './test-infrastructure/rust.js';

export type { TestConvention, TestParts } from './test-infrastructure/convention.js';

export const CONVENTIONS: TestConvention[] = [PYTEST_CONVENTION, GO_CONVENTION, JAVASCRIPT_CONVENTION, RUST_CONVENTION, JAVA_CONVENTION, CMAKE_CONVENTION, RUBY_CONVENTION, PHP_CONVENTION, FOLDERS_CONVENTION];

/** Why `path` is part of the tests by its name, or undefined when its name does not say. */
export function testInfrastructureReason(path: string): string | undefined {
  for (const convention of CONVENTIONS) {
    const reason = convention.byPath(path);
    if (reason) return reason;
  }
  return undefined;
}

export function isTestInfrastructure(path: string): boolean {
  return testInfrastructureReason(path) !== undefined;
}

/** Whether `path` is named as a module of tests by some convention. */
export function isTestModulePath(path: string): boolean {
  return CONVENTIONS.some((c) => c.isTestModule(path));
}

/** Whether only the content can tell (the file may mix test setup with code or other settings). */
export function mayHoldTestConfig(path: string): boolean {
  return CONVENTIONS.some((c) => c.mayHoldTests?.(path));
}

/** The test parts of `text` by every convention that reads `path`, by reason. */
async function partsOf(conventions: TestConvention[], path: string, text: string | undefined): Promise<TestParts> {
  const parts: TestParts = new Map();
  if (text === undefined) return parts;
  for (const convention of conventions) {
    await convention.load?.();
    for (const [reason, part] of convention.testParts?.(path, text) ?? []) parts.set(reason, part);
  }
  return parts;
}

/**
 * Why changing `path` from `before` to `after` (undefined: the file does not
 * exist on that side) changes a part of it that belongs to the tests, or
 * undefined. Asynchronous because some conventions load a grammar first.
 */
export async function testConfigChange(path: string, before: string | undefined, after: string | undefined): Promise<string | undefined> {
  const conventions = CONVENTIONS.filter((c) => c.mayHoldTests?.(path));
  if (conventions.length === 0) return undefined;
  const [old, now] = await Promise.all([partsOf(conventions, path, before), partsOf(conventions, path, after)]);
  const changed = [...new Set([...old.keys(), ...now.keys()])].filter((reason) => (old.get(reason) ?? '') !== (now.get(reason) ?? ''));
  return changed.length > 0 ? changed.join('; ') : undefined;
}
