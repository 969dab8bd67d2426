/**
 * Whether an exported instance still holds: its record says each
 * FAIL_TO_PASS test fails before the fix and passes after it, and each
 * PASS_TO_PASS test passes in both. Given the maps of N runs of each state,
 * every test whose result differs from the record in any run is named, with
 * what each run gave. A test missing from a run's map counts as not passing
 * (as evaluation counts it): before the fix that is the failure the record
 * expects, after it a difference.
 */
import type { TestMap } from '../bugs/test-results.js';

export type InstanceState = 'before the fix' | 'after the fix';

export interface TestDifference {
  test: string;
  state: InstanceState;
  /** What the record says: FAIL_TO_PASS before the fix fails, everything else passes. */
  expected: 'failed' | 'passed';
  /** What each run gave, in order ("missing": not in the run's map). */
  got: ('passed' | 'failed' | 'missing')[];
  /** Which list of the record the test is in. */
  list: 'FAIL_TO_PASS' | 'PASS_TO_PASS';
}

export interface InstanceSpec {
  failToPass: string[];
  passToPass: string[];
}

function statesOf(test: string, maps: TestMap[]): TestDifference['got'] {
  return maps.map((map) => map[test] ?? 'missing');
}

/** Every test of the record that some run contradicts, before the fix then after it. */
export function instanceDifferences(spec: InstanceSpec, before: TestMap[], after: TestMap[]): TestDifference[] {
  const differences: TestDifference[] = [];
  const expect = (state: InstanceState, maps: TestMap[], list: TestDifference['list'], tests: string[], expected: 'failed' | 'passed') => {
    for (const test of tests) {
      const got = statesOf(test, maps);
      const holds = expected === 'passed' ? got.every((g) => g === 'passed') : got.every((g) => g !== 'passed');
      if (!holds) differences.push({ test, state, expected, got, list });
    }
  };
  expect('before the fix', before, 'FAIL_TO_PASS', spec.failToPass, 'failed');
  expect('before the fix', before, 'PASS_TO_PASS', spec.passToPass, 'passed');
  expect('after the fix', after, 'FAIL_TO_PASS', spec.failToPass, 'passed');
  expect('after the fix', after, 'PASS_TO_PASS', spec.passToPass, 'passed');
  return differences;
}

/** One line for a difference: `test (FAIL_TO_PASS) after the fix: expected passed, got passed, failed, passed`. */
export function describeDifference(d: TestDifference): string {
  return `${d.test} (${d.list}) ${d.state}: expected ${d.expected}, got ${d.got.join(', ')}`;
}
