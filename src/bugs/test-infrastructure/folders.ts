/**
 * Folders whose contents belong to the tests in every ecosystem: test/,
 * tests/ (pytest, node's runner, mocha, Cargo's integration tests) and
 * testing/. Checked after the ecosystems' own conventions, whose reasons are
 * more specific.
 */
import { foldersOf, type TestConvention } from './convention.js';

const TEST_FOLDERS = new Set(['test', 'tests', 'testing']);

export const FOLDERS_CONVENTION: TestConvention = {
  name: 'test folders',
  byPath(path) {
    const folder = foldersOf(path).find((f) => TEST_FOLDERS.has(f));
    return folder ? `under a test folder (${folder}/)` : undefined;
  },
  isTestModule: () => false,
};
