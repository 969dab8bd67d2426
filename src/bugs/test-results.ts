/**
 * Test maps ({test id: "passed" | "failed"}) and what follows from comparing
 * them. A test that passed before and is missing from a later map counts as
 * failed there: a crash that stops the runner must not look like a pass.
 */

export type TestStatus = 'passed' | 'failed';
export type TestMap = Record<string, TestStatus>;

export class ParserOutputError extends Error {}

/** Validates a parser's stdout: a JSON object with at least one entry, every value "passed" or "failed". */
export function parseTestMap(stdout: string): TestMap {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    const preview = stdout.trim().slice(0, 80);
    throw new ParserOutputError(`the parser's output is not JSON${preview ? `: ${JSON.stringify(preview)}` : ' (it printed nothing)'}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ParserOutputError(`the parser printed ${Array.isArray(value) ? 'an array' : typeof value}, not a JSON map`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) throw new ParserOutputError('the parser printed an empty map');
  const bad = entries.find(([, status]) => status !== 'passed' && status !== 'failed');
  if (bad) {
    throw new ParserOutputError(`test ${JSON.stringify(bad[0])} has status ${JSON.stringify(bad[1])}; only "passed" and "failed" are allowed`);
  }
  return value as TestMap;
}

export function passedTests(map: TestMap): string[] {
  return Object.keys(map)
    .filter((id) => map[id] === 'passed')
    .sort();
}

/** Tests that passed in `before` and failed or vanished in `after`. */
export function brokenTests(before: TestMap, after: TestMap): string[] {
  return passedTests(before).filter((id) => after[id] !== 'passed');
}

/** Tests that passed in both. */
export function keptTests(before: TestMap, after: TestMap): string[] {
  return passedTests(before).filter((id) => after[id] === 'passed');
}

/** Tests of `tests` that pass in `map` (present and passed). */
export function passingAmong(tests: string[], map: TestMap): string[] {
  return tests.filter((id) => map[id] === 'passed');
}

/** Tests of `tests` that do not pass in `map` (failed or missing). */
export function notPassingAmong(tests: string[], map: TestMap): string[] {
  return tests.filter((id) => map[id] !== 'passed');
}

/** Differences between two maps, for explaining non-determinism. */
export function mapDifferences(a: TestMap, b: TestMap): string[] {
  const ids = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return ids.filter((id) => a[id] !== b[id]).map((id) => `${id}: ${a[id] ?? 'missing'} → ${b[id] ?? 'missing'}`);
}

/** A run's name and map, for saying where a result came from. */
export interface NamedMap {
  label: string;
  results: TestMap;
}

/**
 * Tests whose result differs between two runs of the same state, each named
 * with both results: `id: failed in "buggy", passed in "buggy (run 3)"`.
 * `only` limits the comparison to some tests.
 */
export function runDifferences(a: NamedMap, b: NamedMap, only: (id: string) => boolean = () => true): string[] {
  const ids = [...new Set([...Object.keys(a.results), ...Object.keys(b.results)])].filter(only).sort();
  return ids
    .filter((id) => a.results[id] !== b.results[id])
    .map((id) => `${id}: ${a.results[id] ?? 'missing'} in "${a.label}", ${b.results[id] ?? 'missing'} in "${b.label}"`);
}
