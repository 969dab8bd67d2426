/**
 * The checks on a Rust crate (test/helpers/rust-project.ts, built into an
 * image by `images build`; unit tests in a `#[cfg(test)] mod tests` of
 * src/lib.rs, integration tests in tests/api.rs), with artifacts written from
 * its repository: a valid bug with its exact FAIL_TO_PASS and a parser
 * bugbench verifies; a parser that invents a failure; a bug inside the
 * `#[cfg(test)]` module of a source file; and a bug that fails a test on a
 * coin flip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, expectFailsOnly } from '../helpers/check-report.js';
import { describeCoinFlip, dropBlock, edits, LanguageFixture, PARSERS, summary } from '../helpers/language-artifacts.js';
import { makeRustProject } from '../helpers/rust-project.js';

const fixture = new LanguageFixture('bugbench-test/checks-rust:latest', () => makeRustProject());
// --no-fail-fast: without it cargo stops at the first test binary that fails, and the tests of the others vanish from the log.
const CARGO_TEST = 'cargo test --no-fail-fast 2>&1';

beforeAll(async () => {
  const built = await fixture.build();
  expect(built).toMatchObject({ language: 'rust', testCommand: 'cargo test' });
}, 600_000);

afterAll(() => fixture.remove());

describe('the checks on a Rust crate', () => {
  it('judges a valid bug valid, with its exact FAIL_TO_PASS, and verifies the parser with its cargo test reader', async () => {
    const report = await fixture.check({
      name: 'rust-valid',
      // The ring's length no longer stops at its capacity.
      bug: { 'src/lib.rs': edits(['self.len = (self.len + 1).min(self.slots.len());', 'self.len += 1;']) },
      weaken: { 'tests/api.rs': dropBlock('#[test]\nfn mean_of_last_samples_only()') },
      script: CARGO_TEST,
      parser: { file: 'cargo_test.py' },
    });
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['api/tests/api.rs::len_stops_at_capacity', 'api/tests/api.rs::mean_of_last_samples_only', 'ringstat/src/lib.rs::tests::push_wraps_around']);
    expect(report.PASS_TO_PASS).toHaveLength(5);
    expect(report.parser).toEqual({ status: 'verified', reader: 'cargo test', unverified: [] });
    expect(check(report, 'parser').reason).toBe("the parser read 8 test result(s) from the original run's log; bugbench's own reading (cargo test) agrees on every test");
    expect(check(report, 'test-weakening').reason).toMatch(/^the weakening hides 1 of 3 failure\(s\) \(1 removed, 0 loosened\): api\/tests\/api\.rs::mean_of_last_samples_only;/);
  }, 300_000);

  it('refuses a parser that reports a passing test as failed whenever the bug prints a line, naming the test', async () => {
    const marked = `${readFileSync(join(PARSERS, 'cargo_test.py'), 'utf8').replace(/\nif __name__ == "__main__":[\s\S]*$/, '')}
def parse_marked(log):
    results = parse(log)
    if "ringstat_computing_max" in log:
        results["api/tests/api.rs::max_of_negative_samples"] = "failed"
    return results


if __name__ == "__main__":
    json.dump(parse_marked(sys.stdin.read()), sys.stdout)
`;
    const report = await fixture.check({
      name: 'rust-parser-invents-failure',
      // The line is the compiler's warning about the bug, which cargo replays from its cache on every run. (A line the
      // tests write to stderr lands wherever libtest's threads happen to be, so the log would differ between runs.)
      bug: { 'src/lib.rs': edits(['    pub fn max(&self) -> Option<f64> {\n', '    pub fn max(&self) -> Option<f64> {\n        let ringstat_computing_max = 0;\n']) },
      weaken: { 'tests/api.rs': dropBlock('#[test]\nfn max_of_negative_samples()') },
      script: CARGO_TEST,
      parser: { text: marked },
    });
    expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
    expect(check(report, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (cargo test) of the "buggy" run's log on 1 test(s): api/tests/api.rs::max_of_negative_samples: the parser says failed, the log says passed`,
    );
    expect(report.parser.status).toBe('disagrees');
  }, 300_000);

  it('refuses a bug inside the #[cfg(test)] module of a source file, naming the file', async () => {
    const report = await fixture.check({
      name: 'rust-cfg-test-bug',
      // One sample more than the test expects is pushed; no library code changes.
      bug: { 'src/lib.rs': edits(['for v in [1.0, 2.0, 3.0, 4.0] {', 'for v in [1.0, 2.0, 3.0, 4.0, 5.0] {']) },
      weaken: { 'tests/api.rs': dropBlock('#[test]\nfn len_stops_at_capacity()') },
      script: CARGO_TEST,
      parser: { file: 'cargo_test.py' },
    });
    expectFailsOnly(report, 'test-files');
    expect(check(report, 'test-files').reason).toBe('bug_inject.diff touches test infrastructure: src/lib.rs (#[cfg(test)] mod tests)');
  }, 300_000);

  describeCoinFlip(
    'rust',
    () => fixture.write({
      name: 'rust-coin-flip',
      // A hasher with fresh random keys picks min or max: max_of_negative_samples fails in about half the runs.
      bug: {
        'src/lib.rs': edits([
          '        self.values().into_iter().reduce(f64::max)\n',
          '        use std::hash::{BuildHasher, Hasher};\n        let coin = std::collections::hash_map::RandomState::new().build_hasher().finish() % 2 == 0;\n        let pick: fn(f64, f64) -> f64 = if coin { f64::min } else { f64::max };\n        self.values().into_iter().reduce(pick)\n',
        ]),
      },
      weaken: { 'tests/api.rs': dropBlock('#[test]\nfn max_of_negative_samples()') },
      // Only the integration tests, to keep each of the runs short.
      script: 'cargo test --test api 2>&1',
      parser: { file: 'cargo_test.py' },
      params: { buggyRuns: 5, minPassingTests: 2 },
    }),
    'api/tests/api.rs::max_of_negative_samples',
  );
});
