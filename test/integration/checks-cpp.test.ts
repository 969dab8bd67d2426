/**
 * The checks on a C++ library built with CMake (test/helpers/cpp-project.ts,
 * built into an image by `images build`; GoogleTest and Catch2 tests run by
 * CTest), with artifacts written from its repository: a valid bug with its
 * exact FAIL_TO_PASS and a parser bugbench verifies with its ctest reader; a
 * parser that invents a failure; a bug in the CMake test setup; and a bug
 * that fails a test on a coin flip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, expectFailsOnly } from '../helpers/check-report.js';
import { bugbench } from '../helpers/cli.js';
import { makeCppProject } from '../helpers/cpp-project.js';
import { describeCoinFlip, dropBlock, edits, LanguageFixture, PARSERS, summary } from '../helpers/language-artifacts.js';

const fixture = new LanguageFixture('bugbench-test/checks-cpp:latest', () => makeCppProject());
const BUILD = 'cmake -S . -B /tmp/bugbench-build -DCMAKE_BUILD_TYPE=Debug > /dev/null && cmake --build /tmp/bugbench-build -j 2';
const CTEST = `${BUILD} && ctest --test-dir /tmp/bugbench-build --output-on-failure 2>&1`;

beforeAll(async () => {
  const built = await fixture.build();
  expect(built).toMatchObject({ language: 'cpp', testCommand: `${BUILD} && ctest --test-dir /tmp/bugbench-build --output-on-failure` });
}, 900_000);

afterAll(() => fixture.remove());

describe('the checks on a C++ library built with CMake', () => {
  it('judges a valid bug valid, with its exact FAIL_TO_PASS, and verifies the parser with its ctest reader', async () => {
    const report = await fixture.check({
      name: 'cpp-valid',
      // The sum starts from an int, so every sample is truncated: a classic of std::accumulate.
      bug: { 'src/stats.cc': edits(['std::accumulate(values_.begin(), values_.end(), 0.0)', 'std::accumulate(values_.begin(), values_.end(), 0)']) },
      weaken: { 'tests/stats_test.cc': dropBlock('TEST(StatsTest, MeanOfTenths)') },
      script: CTEST,
      parser: { file: 'ctest.py' },
    });
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['StatsTest.MeanOfTenths', 'StatsTest.MeanOfThree']);
    expect(report.PASS_TO_PASS).toHaveLength(7);
    expect(report.parser).toMatchObject({ status: 'verified', unverified: [] });
    expect(report.parser.reader).toMatch(/ctest/);
    expect(check(report, 'parser').reason).toMatch(/^the parser read 9 test result\(s\) from the original run's log; bugbench's own reading \(.*ctest\) agrees on every test$/);
  }, 300_000);

  it('refuses a parser that reports a passing test as failed whenever the bug prints a line, naming the test', async () => {
    const marked = `${readFileSync(join(PARSERS, 'ctest.py'), 'utf8').replace(/\nif __name__ == "__main__":[\s\S]*$/, '')}
def parse_marked(log):
    results = parse(log)
    if "tally: computing the median" in log:
        results["StatsTest.MinAndMaxOfNegatives"] = "failed"
    return results


if __name__ == "__main__":
    json.dump(parse_marked(sys.stdin.read()), sys.stdout)
`;
    const report = await fixture.check({
      name: 'cpp-parser-invents-failure',
      // The median of an even count is the upper middle sample again, and the function says what it does on stderr,
      // which CTest shows under --output-on-failure for the test that fails.
      bug: {
        'src/stats.cc': edits(
          ['#include <numeric>\n', '#include <cstdio>\n#include <numeric>\n'],
          ['  if (sorted.size() % 2 == 0) return (sorted[mid - 1] + sorted[mid]) / 2.0;\n', '  std::fprintf(stderr, "tally: computing the median\\n");\n'],
        ),
      },
      weaken: { 'tests/stats_test.cc': dropBlock('TEST(MedianTest, EvenCountIsMeanOfMiddleTwo)') },
      script: CTEST,
      parser: { text: marked },
    });
    expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
    expect(check(report, 'bug-validity').reason).toMatch(
      /^the parser disagrees with bugbench's reading \(.*ctest\) of the "buggy" run's log on 1 test\(s\): StatsTest\.MinAndMaxOfNegatives: the parser says failed, the log says passed$/,
    );
    expect(report.parser.status).toBe('disagrees');
  }, 300_000);

  it('refuses a bug in the CMake test setup (a compile definition only the tests see), naming the file', async () => {
    const report = await fixture.check({
      name: 'cpp-cmake-test-bug',
      // The tests' tolerance drops to zero: 0.1 + 0.2 no longer averages to 0.15. No library code changes.
      bug: { 'CMakeLists.txt': edits(['TALLY_EPSILON=1e-9', 'TALLY_EPSILON=0']) },
      weaken: { 'tests/stats_test.cc': dropBlock('TEST(StatsTest, MeanOfTenths)') },
      script: CTEST,
      parser: { file: 'ctest.py' },
    });
    expectFailsOnly(report, 'test-files');
    expect(check(report, 'test-files').reason).toBe('bug_inject.diff touches test infrastructure: CMakeLists.txt (CMake test setup: enable_testing, add_test, test discovery, test executables)');
  }, 300_000);

  it('is refused by the offline policy before any rollout, which says a model is needed', async () => {
    const result = await bugbench(['inject', '--image', 'bugbench-test/checks-cpp:latest', '--strategy', 'removal', '--policy', 'offline', '-n', '1']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/the offline policy cannot inject into bugbench-test\/checks-cpp:latest: its repository is C\/C\+\+, .*A model is needed: use --policy anthropic/);
  });

  describeCoinFlip(
    'cpp',
    () =>
      fixture.write({
        name: 'cpp-coin-flip',
        // A random device picks min or max: MinAndMaxOfNegatives fails in about half the runs.
        bug: {
          'src/stats.cc': edits(
            ['#include <numeric>\n', '#include <numeric>\n#include <random>\n'],
            ['  return *std::max_element(values_.begin(), values_.end());\n', '  if (std::random_device{}() % 2 == 0) return *std::min_element(values_.begin(), values_.end());\n  return *std::max_element(values_.begin(), values_.end());\n'],
          ),
        },
        weaken: { 'tests/stats_test.cc': dropBlock('TEST(StatsTest, MinAndMaxOfNegatives)') },
        // Only the GoogleTest cases, to keep each of the runs short.
        script: `${BUILD} && ctest --test-dir /tmp/bugbench-build --output-on-failure -R '^(StatsTest|MedianTest)\\.' 2>&1`,
        parser: { file: 'ctest.py' },
        params: { buggyRuns: 5, minPassingTests: 2 },
      }),
    'StatsTest.MinAndMaxOfNegatives',
  );
});
