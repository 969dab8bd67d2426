import { describe, expect, it } from 'vitest';
import type { TestMap } from '../../../src/bugs/test-results.js';
import { describeDifference, instanceDifferences } from '../../../src/datasets/export-verdict.js';

const spec = { failToPass: ['t::broken'], passToPass: ['t::kept'] };

describe("an exported instance's record against its runs", () => {
  it('holds when the FAIL_TO_PASS test fails or is missing before the fix and everything passes after it', () => {
    const before: TestMap[] = [{ 't::broken': 'failed', 't::kept': 'passed' }, { 't::kept': 'passed' }];
    const after = [{ 't::broken': 'passed' as const, 't::kept': 'passed' as const }, { 't::broken': 'passed' as const, 't::kept': 'passed' as const }];
    expect(instanceDifferences(spec, before, after)).toEqual([]);
  });

  it('names a test that flips in one run of three, and one missing after the fix, with what each run gave', () => {
    const before = [{ 't::broken': 'failed' as const, 't::kept': 'passed' as const }, { 't::broken': 'failed' as const, 't::kept': 'failed' as const }, { 't::broken': 'passed' as const, 't::kept': 'passed' as const }];
    const after: TestMap[] = [{ 't::kept': 'passed' as const }, { 't::broken': 'passed' as const, 't::kept': 'passed' as const }, { 't::broken': 'passed' as const, 't::kept': 'passed' as const }];
    const differences = instanceDifferences(spec, before, after);
    expect(differences.map(describeDifference)).toEqual([
      't::broken (FAIL_TO_PASS) before the fix: expected failed, got failed, failed, passed',
      't::kept (PASS_TO_PASS) before the fix: expected passed, got passed, failed, passed',
      't::broken (FAIL_TO_PASS) after the fix: expected passed, got missing, passed, passed',
    ]);
  });
});
