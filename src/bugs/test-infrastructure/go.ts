/**
 * Go: `go test` builds every *_test.go file of a package into its tests, and
 * only into them, so a *_test.go file is test infrastructure whether or not
 * it holds Test functions (export_test.go, helpers, TestMain). The go tool
 * ignores testdata/ folders; what lies there is read by tests alone.
 */
import { baseName, foldersOf, type TestConvention } from './convention.js';

/** *_test.go files that by custom hold helpers, exports for tests or TestMain rather than tests. */
const HELPER = /^(export|exports|helpers?|utils?|testutils?|common|setup|fixtures?|mocks?|main|doc)_test\.go$/;

export const GO_CONVENTION: TestConvention = {
  name: 'go',
  byPath(path) {
    if (baseName(path).endsWith('_test.go')) return 'a Go test file (*_test.go)';
    if (foldersOf(path).includes('testdata')) return 'under testdata/ (Go test data)';
    return undefined;
  },
  isTestModule(path) {
    const base = baseName(path);
    return /.+_test\.go$/.test(base) && !HELPER.test(base);
  },
};
