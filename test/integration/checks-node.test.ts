/**
 * The checks on a JavaScript package tested with node's built-in runner
 * (test/helpers/node-project.ts, built into an image by `images build`; `npm
 * test` runs `node --test`, which prints TAP on a pipe), with artifacts
 * written from its repository: a valid bug with its exact FAIL_TO_PASS and a
 * parser bugbench verifies; a parser that invents a failure; a bug that lives
 * in package.json's test script; and a bug that fails a test on a coin flip
 * (BUGBENCH_COIN_FLIP_CHECKS=10 also judges it ten times and prints the count).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, expectFailsOnly } from '../helpers/check-report.js';
import { artifactPath } from '../helpers/artifacts.js';
import { checkDir, describeCoinFlip, edits, LanguageFixture, parserFile, summary } from '../helpers/language-artifacts.js';
import { LATE_TIMER_TEST, makeNodeProject } from '../helpers/node-project.js';

const fixture = new LanguageFixture('bugbench-test/checks-node:latest', () => makeNodeProject());
const NPM_TEST = 'npm test 2>&1';
const TEST_FILES = ['test/slug.test.js', 'test/wrap.test.js', 'test/case.test.js'];

/** Removes the it() line of `title` from a test file. */
const dropIt = (title: string) => (text: string) => {
  const line = text.split('\n').find((l) => l.includes(`it('${title}'`));
  if (!line) throw new Error(`no test "${title}"`);
  return text.replace(`${line}\n`, '');
};

beforeAll(async () => {
  const built = await fixture.build();
  expect(built).toMatchObject({ language: 'node', testCommand: 'npm test' });
}, 600_000);

afterAll(() => fixture.remove());


/** node's TAP parser, lying: "wrap > breaks at spaces" failed whenever the bug's line is in the log. */
function markedParser(): string {
  return `${readFileSync(parserFile('node_tap_parser.py'), 'utf8').replace(/\nif __name__ == "__main__":[\s\S]*$/, '')}
def parse_marked(log):
    results = parse(log)
    if "textkit: wrapping" in log:
        results["wrap > breaks at spaces"] = "failed"
    return results


if __name__ == "__main__":
    json.dump(parse_marked(sys.stdin.read()), sys.stdout)
`;
}

describe('the checks on a package tested with node --test', () => {
  it('judges a valid bug valid, with its exact FAIL_TO_PASS, and verifies the parser with its TAP reader', async () => {
    const report = await fixture.check({
      name: 'node-valid',
      // Accents kept and runs of separators no longer collapsed.
      bug: { 'src/slug.js': edits([".normalize('NFKD')", ".normalize('NFC')"], [".replace(/[^a-z0-9]+/g, '-')", ".replace(/[^a-z0-9]/g, '-')"]) },
      weaken: { 'test/slug.test.js': dropIt('drops accents') },
      testFiles: TEST_FILES,
      script: NPM_TEST,
      parser: { file: 'node_tap_parser.py' },
    });
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['slugify > collapses runs of separators', 'slugify > drops accents']);
    expect(report.PASS_TO_PASS).toHaveLength(10);
    expect(report.parser).toEqual({ status: 'verified', reader: 'TAP (node --test)', unverified: [] });
    expect(check(report, 'parser').reason).toBe("the parser read 12 test result(s) from the original run's log; bugbench's own reading (TAP (node --test)) agrees on every test");
    expect(check(report, 'test-weakening').reason).toMatch(/^the weakening hides 1 of 2 failure\(s\) \(1 removed, 0 loosened\): slugify > drops accents;/);
  }, 300_000);

  it("judges valid the bench's TypeScript bug: two fixes of the vercraft sample undone, each file needed", async () => {
    // test/fixtures/artifacts/ts-valid-two-files, which `npm run bench:checks -- --fixture typescript` times.
    const report = await checkDir(artifactPath('ts-valid-two-files'), '--buggy-runs', '2');
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toHaveLength(3);
    expect(report.parser?.status).toBe('verified');
    expect(check(report, 'inverse-mutation').reason).toBe('every file matters (tests fixed by reverting it alone: src/compare.ts → 1, src/increment.ts → 2)');
  }, 900_000);

  it('refuses a parser that reports a passing test as failed whenever the bug prints a line, naming the test', async () => {
    const report = await fixture.check({
      name: 'node-parser-invents-failure',
      bug: { 'src/wrap.js': edits(['export function wrap(text, width) {\n', "export function wrap(text, width) {\n  console.error('textkit: wrapping');\n"]) },
      weaken: { 'test/wrap.test.js': dropIt('breaks at spaces') },
      testFiles: TEST_FILES,
      script: NPM_TEST,
      parser: { text: markedParser() },
    });
    expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
    expect(check(report, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (TAP (node --test)) of the "buggy" run's log on 1 test(s): wrap > breaks at spaces: the parser says failed, the log says passed`,
    );
    expect(report.parser.status).toBe('disagrees');
  }, 300_000);

  it("refuses a bug that lives in package.json's test script, naming the file", async () => {
    const report = await fixture.check({
      name: 'node-test-script-bug',
      // The test script preloads a module that breaks String.prototype.normalize in every test process.
      bug: {
        'package.json': edits(['"test": "node --test"', '"test": "node --require ./src/compat.cjs --test"']),
        'src/compat.cjs': () => 'String.prototype.normalize = function () {\n  return String(this);\n};\n',
      },
      weaken: { 'test/slug.test.js': dropIt('drops accents') },
      testFiles: TEST_FILES,
      script: NPM_TEST,
      parser: { file: 'node_tap_parser.py' },
    });
    expectFailsOnly(report, 'test-files');
    expect(check(report, 'test-files').reason).toBe("bug_inject.diff touches test infrastructure: package.json (package.json's test script)");
  }, 300_000);

  describeCoinFlip(
    'node',
    () => fixture.write({
      name: 'node-coin-flip',
      // A coin at each call; only 'trims dashes at the ends' slugs a text that ends in a dash, so it alone fails, in about half the runs.
      bug: { 'src/slug.js': edits([".replace(/^-+|-+$/g, '')", ".replace(Math.random() < 0.5 ? /^-+|-+$/g : /^-+/g, '')"]) },
      weaken: { 'test/slug.test.js': dropIt('trims dashes at the ends') },
      testFiles: ['test/slug.test.js'],
      script: 'node --test test/slug.test.js 2>&1',
      parser: { file: 'node_tap_parser.py' },
      params: { buggyRuns: 5, minPassingTests: 4 },
    }),
    'slugify > trims dashes at the ends',
  );
});

describe("the checks on a package tested with node 18's TAP over a folder of files", () => {
  // timers.test.js fails as a whole in every run, so node 18 numbers its point like another file's test.
  const folder = new LanguageFixture('bugbench-test/checks-node-folder:latest', () => makeNodeProject('textkit-folder', { 'test/timers.test.js': LATE_TIMER_TEST }));

  beforeAll(async () => {
    await folder.build();
  }, 600_000);

  afterAll(() => folder.remove());

  it('refuses a parser that reports a passing test as failed whenever the bug prints a line, naming the test', async () => {
    const report = await folder.check({
      name: 'node18-folder-parser-invents-failure',
      bug: { 'src/wrap.js': edits(['export function wrap(text, width) {\n', "export function wrap(text, width) {\n  console.error('textkit: wrapping');\n"]) },
      weaken: { 'test/wrap.test.js': dropIt('breaks at spaces') },
      testFiles: [...TEST_FILES, 'test/timers.test.js'],
      script: 'node --test --test-reporter=tap test/ 2>&1',
      parser: { text: markedParser() },
    });
    expect(check(report, 'parser').reason).toMatch(/agrees on every test$/);
    expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
    expect(check(report, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (TAP (node --test)) of the "buggy" run's log on 1 test(s): wrap > breaks at spaces: the parser says failed, the log says passed`,
    );
  }, 300_000);
});
