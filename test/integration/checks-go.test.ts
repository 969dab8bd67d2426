/**
 * The checks on a Go module (test/helpers/go-project.ts, built into an image
 * by `images build`), with artifacts written from its repository: a valid bug
 * with its exact FAIL_TO_PASS and a parser bugbench verifies; a parser that
 * invents a failure; a bug in a `_test.go` helper; a bug that fails a test on
 * a coin flip; and a test script that leaves the broken test out whenever the
 * library differs from the commit, beside one whose selection is fixed. Also
 * the Go bug that bench/checks.ts times, on the ratekit sample.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath } from '../helpers/artifacts.js';
import { check, expectFailsOnly } from '../helpers/check-report.js';
import { GO_TESTS, makeGoProject } from '../helpers/go-project.js';
import { checkDir, describeCoinFlip, dropBlock, edits, LanguageFixture, parserFile, summary } from '../helpers/language-artifacts.js';

const fixture = new LanguageFixture('bugbench-test/checks-go:latest', () => makeGoProject());
const PKG = 'example.com/tracekit';
const GO_TEST = 'go test -count=1 -v ./... 2>&1';
const TEST_FILES = ['span/span_test.go', 'sampler/sampler_test.go'];

beforeAll(async () => {
  const built = await fixture.build();
  expect(built).toMatchObject({ language: 'go', testCommand: 'go test -count=1 -v ./...' });
}, 600_000);

afterAll(() => fixture.remove());

/** The fix of a nested span undone: a span inside another is counted again. */
const NESTED_BUG = edits(['\t\tcase s.End > end:\n', '\t\tdefault:\n']);

describe('the checks on a Go module', () => {
  it('judges a valid bug valid, with its exact FAIL_TO_PASS, and verifies the parser with its go test -v reader', async () => {
    const report = await fixture.check({
      name: 'go-valid',
      // A span's duration counted with both ends: every sum of durations is off.
      bug: { 'span/span.go': edits(['func (s Span) Duration() int64 { return s.End - s.Start }', 'func (s Span) Duration() int64 { return s.End - s.Start + 1 }']) },
      weaken: { 'span/span_test.go': dropBlock('func TestDuration(') },
      testFiles: TEST_FILES,
      script: GO_TEST,
      parser: { file: 'go_test_parser.py' },
    });
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual([`${PKG}/span/TestBusy`, `${PKG}/span/TestBusyNested`, `${PKG}/span/TestDuration`, `${PKG}/span/TestTotal`]);
    expect(report.PASS_TO_PASS).toHaveLength(14);
    expect(report.PASS_TO_PASS).toContain(`${PKG}/span/TestNew/reversed`);
    expect(report.parser).toEqual({ status: 'verified', reader: 'go test -v', unverified: [] });
    expect(check(report, 'parser').reason).toBe("the parser read 18 test result(s) from the original run's log; bugbench's own reading (go test -v) agrees on every test");
    expect(check(report, 'test-weakening').reason).toMatch(/^the weakening hides 1 of 4 failure\(s\) \(1 removed, 0 loosened\): example\.com\/tracekit\/span\/TestDuration;/);
  }, 300_000);

  it("judges valid the bench's Go bug: two fixes of the ratekit sample undone, each file needed", async () => {
    // test/fixtures/artifacts/go-valid-two-files, which `npm run bench:checks -- --fixture go` times.
    const report = await checkDir(artifactPath('go-valid-two-files'), '--buggy-runs', '2');
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['example.com/ratekit/backoff/TestDelayCappedForLargeAttempts', 'example.com/ratekit/lru/TestKeysMostRecentFirst']);
    expect(report.PASS_TO_PASS).toHaveLength(43);
    expect(report.parser).toEqual({ status: 'verified', reader: 'go test -v', unverified: [] });
    expect(check(report, 'inverse-mutation').reason).toBe('every file matters (tests fixed by reverting it alone: backoff/backoff.go → 1, lru/lru.go → 1)');
  }, 300_000);

  it('refuses a parser that reports a passing test as failed whenever the bug prints a line, naming the test', async () => {
    const marked = `${readFileSync(parserFile('go_test_parser.py'), 'utf8').replace(/\nif __name__ == "__main__":[\s\S]*$/, '')}
def parse_marked(log):
    results = parse(log)
    if "tracekit: summing spans" in log:
        results["${PKG}/span/TestTotal"] = "failed"
    return results


if __name__ == "__main__":
    json.dump(parse_marked(sys.stdin.read()), sys.stdout)
`;
    const report = await fixture.check({
      name: 'go-parser-invents-failure',
      bug: {
        'span/span.go': edits(['import (\n\t"errors"\n', 'import (\n\t"errors"\n\t"fmt"\n\t"os"\n'], ['\tvar sum int64\n', '\tfmt.Fprintln(os.Stderr, "tracekit: summing spans")\n\tvar sum int64\n']),
      },
      weaken: { 'span/span_test.go': dropBlock('func TestTotal(') },
      testFiles: TEST_FILES,
      script: GO_TEST,
      parser: { text: marked },
    });
    expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
    expect(check(report, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (go test -v) of the "buggy" run's log on 1 test(s): ${PKG}/span/TestTotal: the parser says failed, the log says passed`,
    );
    expect(report.parser.status).toBe('disagrees');
    expect(report.FAIL_TO_PASS).toEqual([]);
  }, 300_000);

  it('judges valid a bug whose parser reads go test -json and names each test <import path>::<TestName>, and refuses the same parser lying', async () => {
    // An honest naming an agent may well choose (pytest's ids look like it): the audit matches it by its components.
    const jsonParser = (lie: string) => `import json
import sys


def parse(log):
    results = {}
    for line in log.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict) or not event.get("Test") or event.get("Action") not in ("pass", "fail"):
            continue
        results[event["Package"] + "::" + event["Test"]] = "passed" if event["Action"] == "pass" else "failed"
${lie}    return results


if __name__ == "__main__":
    json.dump(parse(sys.stdin.read()), sys.stdout)
`;
    const artifact = (name: string, lie: string) => ({
      name,
      bug: {
        'span/span.go': edits(
          ['import (\n\t"errors"\n', 'import (\n\t"errors"\n\t"fmt"\n\t"os"\n'],
          ['func (s Span) Duration() int64 { return s.End - s.Start }', 'func (s Span) Duration() int64 { fmt.Fprintln(os.Stderr, "tracekit: measuring"); return s.End - s.Start + 1 }'],
        ),
      },
      weaken: { 'span/span_test.go': dropBlock('func TestDuration(') },
      testFiles: TEST_FILES,
      script: 'go test -count=1 -json ./... 2>&1',
      parser: { text: jsonParser(lie) },
    });
    const honest = await fixture.check(artifact('go-json-colons', ''));
    expect(honest.valid, summary(honest)).toBe(true);
    expect(honest.FAIL_TO_PASS).toEqual([`${PKG}/span::TestBusy`, `${PKG}/span::TestBusyNested`, `${PKG}/span::TestDuration`, `${PKG}/span::TestTotal`]);
    expect(honest.parser).toEqual({ status: 'verified', reader: 'go test -json', unverified: [] });
    const lying = await fixture.check(artifact('go-json-colons-lying', `    if "tracekit: measuring" in log:\n        results["${PKG}/sampler::TestEvery"] = "failed"\n`));
    expect(lying.valid).toBe(false);
    expect(check(lying, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (go test -json) of the "buggy" run's log on 1 test(s): ${PKG}/sampler::TestEvery: the parser says failed, the log says passed`,
    );
  }, 600_000);

  it('refuses a bug in a _test.go helper that test_files.txt leaves out, naming the file', async () => {
    const report = await fixture.check({
      name: 'go-helper-bug',
      // The helper drops the last span before the tests see it; no library code changes.
      bug: { 'span/helpers_test.go': edits(['for i := 0; i+1 < len(bounds); i += 2 {', 'for i := 0; i+3 < len(bounds); i += 2 {']) },
      weaken: { 'span/span_test.go': dropBlock('func TestTotal(') },
      testFiles: TEST_FILES,
      script: GO_TEST,
      parser: { file: 'go_test_parser.py' },
    });
    expectFailsOnly(report, 'test-files');
    expect(check(report, 'test-files').reason).toBe('bug_inject.diff touches test infrastructure: span/helpers_test.go (a Go test file (*_test.go))');
  }, 300_000);
});

describeCoinFlip(
  'go',
  () => fixture.write({
    name: 'go-coin-flip',
    // Decided once per test binary: TestOverlaps fails in about half the runs.
    bug: {
      'span/span.go': edits(
        ['import (\n\t"errors"\n', 'import (\n\t"errors"\n\t"math/rand"\n\t"time"\n'],
        ['func (s Span) Overlaps(o Span) bool { return s.Start < o.End && o.Start < s.End }', 'func (s Span) Overlaps(o Span) bool { return s.Start < o.End && o.Start < s.End && !strict }\n\nvar strict = rand.New(rand.NewSource(time.Now().UnixNano())).Intn(2) == 0'],
      ),
    },
    weaken: { 'span/span_test.go': dropBlock('func TestOverlaps(') },
    testFiles: ['span/span_test.go'],
    // Only the package the bug lives in, to keep each run short.
    script: 'go test -count=1 -v ./span 2>&1',
    parser: { file: 'go_test_parser.py' },
    params: { buggyRuns: 5 },
  }),
  `${PKG}/span/TestOverlaps`,
);

describe('a Go test script whose selection follows the code', () => {
  const ALL_BUT = (...left: string[]) =>
    `'^(${GO_TESTS.filter((t) => !left.includes(t)).join('|')})$'`;

  it('is refused by bug-validity, naming the test that vanishes from the buggy runs while its package ran', async () => {
    const script = [
      // Whenever the library differs from the commit, the broken test is left out.
      `if git diff --quiet HEAD -- '*.go' ':(exclude)*_test.go'; then run=.; else run=${ALL_BUT('TestBusyNested')}; fi`,
      'go test -count=1 -v -run "$run" ./... 2>&1',
    ].join('\n');
    const report = await fixture.check({
      name: 'go-follows-code',
      bug: { 'span/span.go': NESTED_BUG },
      weaken: { 'span/span_test.go': dropBlock('func TestLongestEmpty(') },
      testFiles: TEST_FILES,
      script,
      parser: { file: 'go_test_parser.py' },
    });
    // The test vanishes while the rest of its package ran, and the log shows no build error or panic (#30 item 5).
    expectFailsOnly(report, 'bug-validity');
    expect(check(report, 'bug-validity').reason).toBe(
      `1 test(s) vanish from the buggy run while the rest of their file ran, and its log shows no collection error or crash: the test script chooses its tests by the state of the code: ${PKG}/span/TestBusyNested`,
    );
  }, 300_000);

  it('stays valid when the script always leaves the same unrelated test out', async () => {
    const report = await fixture.check({
      name: 'go-fixed-selection',
      bug: { 'span/span.go': NESTED_BUG },
      weaken: { 'span/span_test.go': dropBlock('func TestBusyNested(') },
      testFiles: TEST_FILES,
      script: `go test -count=1 -v -run ${ALL_BUT('TestSortByStart')} ./... 2>&1`,
      parser: { file: 'go_test_parser.py' },
    });
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual([`${PKG}/span/TestBusyNested`]);
    expect(report.PASS_TO_PASS).not.toContain(`${PKG}/span/TestSortByStart`);
    expect(report.parser).toMatchObject({ status: 'verified', reader: 'go test -v' });
  }, 300_000);
});
