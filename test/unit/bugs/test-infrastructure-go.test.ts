import { describe, expect, it } from 'vitest';
import { isTestModulePath, mayHoldTestConfig, testInfrastructureReason } from '../../../src/bugs/test-infrastructure.js';

describe('Go test infrastructure', () => {
  it.each([
    ['parse_test.go', 'a Go test file (*_test.go)'],
    ['internal/span/span_test.go', 'a Go test file (*_test.go)'],
    // A helper without Test functions still builds into the tests only.
    ['internal/span/helpers_test.go', 'a Go test file (*_test.go)'],
    ['export_test.go', 'a Go test file (*_test.go)'],
    ['testdata/golden.json', 'under testdata/ (Go test data)'],
    ['pkg/parse/testdata/bad/input.go', 'under testdata/ (Go test data)'],
  ])('%s is %s', (path, reason) => {
    expect(testInfrastructureReason(path)).toBe(reason);
  });

  it.each(['contest.go', 'latest.go', 'pkg/test.go', 'testutil.go', 'internal/testdatagen/gen.go', 'go.mod', 'cmd/tool/main.go', 'parse_test.go.orig'])('%s is not', (path) => {
    expect(testInfrastructureReason(path)).toBeUndefined();
  });

  it('names *_test.go files as test modules, except those that by custom hold helpers', () => {
    expect(isTestModulePath('pkg/parse_test.go')).toBe(true);
    expect(isTestModulePath('pkg/example_test.go')).toBe(true);
    expect(isTestModulePath('pkg/export_test.go')).toBe(false);
    expect(isTestModulePath('pkg/helpers_test.go')).toBe(false);
    expect(isTestModulePath('pkg/main_test.go')).toBe(false);
    expect(isTestModulePath('pkg/testdata/x_test.go')).toBe(true);
    expect(isTestModulePath('pkg/parse.go')).toBe(false);
  });

  it('has no test parts inside Go sources', () => {
    expect(mayHoldTestConfig('pkg/parse.go')).toBe(false);
    expect(mayHoldTestConfig('go.mod')).toBe(false);
  });
});
