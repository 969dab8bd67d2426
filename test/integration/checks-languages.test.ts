/**
 * The checks on a fixture repository of each language (the table in
 * test/helpers/language-table.ts; each repository built into an image by
 * `images build`), with artifacts written from its repository: a valid bug
 * with its exact FAIL_TO_PASS and a parser bugbench verifies with its own
 * reader; a parser that invents a failure; a bug in the test infrastructure;
 * and a bug that fails a test on a coin flip (BUGBENCH_COIN_FLIP_CHECKS=10
 * also judges it ten times and prints the count). The valid bug is judged on
 * Docker and again on the bwrap kind — the image packed once into a folder,
 * `bugbench check` run with DOCKER_HOST=bwrap:///DIR as an ordinary user —
 * which must give the same verdict and FAIL_TO_PASS; its check makes every
 * kind of run the others do (original, buggy, weakened, reverts, gold),
 * and what the others add is the verdicts' logic, which no engine
 * changes. Then what only some languages have: the
 * offline policy's refusal, and the Go and node cases of their own.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath } from '../helpers/artifacts.js';
import { check, expectFailsOnly } from '../helpers/check-report.js';
import { bugbench } from '../helpers/cli.js';
import { GO_TESTS } from '../helpers/go-project.js';
import { type BugSpec, checkDir, dropBlock, edits, expectDeterminismCatches, expectMostlyRefused, type Judge, LanguageFixture, summary } from '../helpers/language-artifacts.js';
import { type Case, dropIt, GO_PKG, GO_TEST_FILES, LANGUAGES, lyingParser, NODE_TEST_FILES } from '../helpers/language-table.js';
import { LATE_TIMER_TEST, makeNodeProject } from '../helpers/node-project.js';
import { PackedEngine } from '../helpers/packed-engine.js';

const packed = new PackedEngine();
afterAll(() => packed.remove());

const ENGINES: Record<'docker' | 'bwrap', Judge> = {
  docker: checkDir,
  bwrap: (dir, ...flags) => packed.check(dir, ...flags),
};
const COIN_FLIP_CHECKS = Number(process.env.BUGBENCH_COIN_FLIP_CHECKS || 0);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exactly = (pattern: string) => new RegExp(`^${pattern}$`);

/** Languages whose own cases need their fixture (below the table). */
const EXTRAS: Record<string, (fixture: LanguageFixture) => void> = { go: goCases, node: nodeCases };

for (const lang of LANGUAGES) describe(`the checks on ${lang.title}`, () => {
  const fixture = new LanguageFixture(`bugbench-test/checks-${lang.name}:latest`, lang.make);
  const reader = typeof lang.reader === 'string' ? escape(lang.reader) : lang.reader.source;
  // Each case's artifact is written once and judged on each engine.
  const written = new Map<string, Promise<string>>();
  const artifact = (name: string, spec: Case, parser: BugSpec['parser'] = { file: lang.parser }) => {
    if (!written.has(name)) written.set(name, fixture.write({ name: `${lang.name}-${name}`, script: lang.script, testFiles: lang.testFiles, parser, ...spec }));
    return written.get(name)!;
  };

  // Packed while the Docker cases run (it is mostly the engine's export and the disk), awaited by the bwrap ones.
  let packing: Promise<number> | undefined;
  beforeAll(async () => {
    expect(await fixture.build()).toMatchObject(lang.built);
    packing = packed.pack(fixture.tag);
    packing.catch(() => undefined);
  }, 900_000);

  afterAll(() => fixture.remove());

  describe.each(Object.entries(ENGINES))('on %s', (engine, judge) => {
    if (engine === 'bwrap') {
      beforeAll(async () => {
        console.log(`${lang.name}: packed for bwrap in ${await packing} s`);
      }, 600_000);
    }

    it('judges a valid bug valid, with its exact FAIL_TO_PASS, and verifies the parser with its own reader', async () => {
      const valid = lang.valid;
      const report = await judge(await artifact('valid', valid));
      expect(report.valid, summary(report)).toBe(true);
      expect(report.FAIL_TO_PASS).toEqual(valid.failToPass);
      expect(report.PASS_TO_PASS).toHaveLength(valid.passToPass);
      if (valid.alsoPassing) expect(report.PASS_TO_PASS).toContain(valid.alsoPassing);
      expect(report.parser).toEqual({ status: 'verified', reader: expect.stringMatching(exactly(reader)), unverified: [] });
      expect(check(report, 'parser').reason).toMatch(exactly(`the parser read ${valid.results} test result\\(s\\) from the original run's log; bugbench's own reading \\(${reader}\\) agrees on every test`));
      if (valid.hidden) {
        expect(check(report, 'test-weakening').reason).toMatch(new RegExp(`^the weakening hides 1 of ${valid.hidden.of} failure\\(s\\) \\(1 removed, 0 loosened\\): ${escape(valid.hidden.test)};`));
      }
      if (engine === 'bwrap') expect(await packed.sandboxesLeft()).toEqual([]);
    }, 300_000);

    // The verdicts below are the checks' logic over the runs' logs: judged on Docker only, to keep the suite short.
    it.runIf(engine === 'docker')('refuses a parser that reports a passing test as failed whenever the bug prints a line, naming the test', async () => {
      const lying = lang.lying;
      const report = await judge(await artifact('parser-invents-failure', lying, { text: lyingParser(lang.parser, lying.marker, lying.test) }));
      expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
      expect(check(report, 'bug-validity').reason).toMatch(
        exactly(`the parser disagrees with bugbench's reading \\(${reader}\\) of the "buggy" run's log on 1 test\\(s\\): ${escape(lying.test)}: the parser says failed, the log says passed`),
      );
      expect(report.parser.status).toBe('disagrees');
      expect(report.FAIL_TO_PASS).toEqual([]);
    }, 300_000);

    // Decided before any test runs, from the diff and reads of the original's files that the valid bug's check makes on
    // bwrap too (its test-files check passes there): judged on Docker only, to keep the suite short.
    it.runIf(engine === 'docker')('refuses a bug in the test infrastructure, naming the file', async () => {
      const report = await judge(await artifact('test-infrastructure', lang.infrastructure));
      expectFailsOnly(report, 'test-files');
      expect(check(report, 'test-files').reason).toBe(lang.infrastructure.reason);
    }, 300_000);

    it.runIf(engine === 'docker')('refuses a bug that fails a test on a coin flip, by determinism naming the test or by bug-validity when the first run passed it, in a check with twelve buggy runs', async () => {
      await expectDeterminismCatches(await artifact('coin-flip', lang.coinFlip), lang.coinFlip.test, judge);
    }, 300_000);

    it.runIf(COIN_FLIP_CHECKS > 0)(`refuses the coin flip in at least 80% of ${COIN_FLIP_CHECKS} checks at five buggy runs`, async () => {
      await expectMostlyRefused(`${lang.name} on ${engine}`, await artifact('coin-flip', lang.coinFlip), COIN_FLIP_CHECKS, judge);
    }, 1_800_000);
  });

  it.runIf(lang.offline !== undefined)('is refused by the offline policy before any rollout, which says a model is needed', async () => {
    const result = await bugbench(['inject', '--image', fixture.tag, '--strategy', 'removal', '--policy', 'offline', '-n', '1']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`the offline policy cannot inject into ${escape(fixture.tag)}: its repository is ${lang.offline}, .*A model is needed: use --policy anthropic`));
  });

  EXTRAS[lang.name]?.(fixture);
});

/** Go: the bench's bug, a parser reading go test -json, and test scripts whose selection does or does not follow the code. */
function goCases(fixture: LanguageFixture): void {
  it("judges valid the bench's Go bug: two fixes of the ratekit sample undone, each file needed", async () => {
    // test/fixtures/artifacts/go-valid-two-files, which `npm run bench:checks -- --fixture go` times.
    const report = await checkDir(artifactPath('go-valid-two-files'), '--buggy-runs', '2');
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['example.com/ratekit/backoff/TestDelayCappedForLargeAttempts', 'example.com/ratekit/lru/TestKeysMostRecentFirst']);
    expect(report.PASS_TO_PASS).toHaveLength(43);
    expect(report.parser).toEqual({ status: 'verified', reader: 'go test -v', unverified: [] });
    expect(check(report, 'inverse-mutation').reason).toBe('every file matters (tests fixed by reverting it alone: backoff/backoff.go → 1, lru/lru.go → 1)');
    // Neither package imports the other: each revert runs the other package's failing test as a rerun would, so none is needed.
    expect(check(report, 'determinism').runs).toEqual([]);
    expect(check(report, 'determinism').reason).toContain('the bug\'s failures show again in 3 run(s) of the buggy code ("buggy", "revert backoff/backoff.go", "revert lru/lru.go")');
  }, 300_000);

  it("refuses a coin in one package beside a change of another package its tests do not import, whichever way the coin falls in that package's revert", async () => {
    const coin = LANGUAGES.find((l) => l.name === 'go')!.coinFlip;
    const spec = {
      name: 'go-coin-two-packages',
      // A change of sampler (which imports span, not the other way) that alters nothing.
      bug: { ...coin.bug, 'sampler/sampler.go': edits(['\tif n > len(sorted) {\n', '\tif len(sorted) < n {\n']) },
      weaken: coin.weaken,
      testFiles: GO_TEST_FILES,
      script: 'go test -count=1 -v ./... 2>&1',
      parser: { file: 'go_test_parser.py' },
      params: { buggyRuns: 5 },
    };
    // Every check judged, so inverse mutation says how the coin fell in sampler's revert even when determinism failed first.
    const report = await fixture.check(spec, '--all');
    expect(report.valid, summary(report)).toBe(false);
    // A first run that passed the test leaves nothing broken; else heads in sampler's revert fixes nothing (inverse mutation), and tails there is a flip.
    if (check(report, 'bug-validity').verdict === 'fail') return;
    const failed = report.checks.filter((c) => c.verdict === 'fail').map((c) => c.name);
    for (const name of failed) expect(['inverse-mutation', 'determinism']).toContain(name);
    if (!failed.includes('inverse-mutation')) {
      expect(check(report, 'determinism').reason).toMatch(new RegExp(`^the bug's failing tests give different results from run to run \\(1 test\\(s\\)\\): ${escape(coin.test)} .*passed in "revert sampler/sampler\\.go"`));
    }
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
      testFiles: GO_TEST_FILES,
      script: 'go test -count=1 -json ./... 2>&1',
      parser: { text: jsonParser(lie) },
    });
    const honest = await fixture.check(artifact('go-json-colons', ''));
    expect(honest.valid, summary(honest)).toBe(true);
    expect(honest.FAIL_TO_PASS).toEqual([`${GO_PKG}/span::TestBusy`, `${GO_PKG}/span::TestBusyNested`, `${GO_PKG}/span::TestDuration`, `${GO_PKG}/span::TestTotal`]);
    expect(honest.parser).toEqual({ status: 'verified', reader: 'go test -json', unverified: [] });
    const lying = await fixture.check(artifact('go-json-colons-lying', `    if "tracekit: measuring" in log:\n        results["${GO_PKG}/sampler::TestEvery"] = "failed"\n`));
    expect(lying.valid).toBe(false);
    expect(check(lying, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (go test -json) of the "buggy" run's log on 1 test(s): ${GO_PKG}/sampler::TestEvery: the parser says failed, the log says passed`,
    );
  }, 600_000);

  describe('a Go test script whose selection follows the code', () => {
    /** The fix of a nested span undone: a span inside another is counted again. */
    const NESTED_BUG = edits(['\t\tcase s.End > end:\n', '\t\tdefault:\n']);
    const ALL_BUT = (...left: string[]) => `'^(${GO_TESTS.filter((t) => !left.includes(t)).join('|')})$'`;
    /** The nested-span bug, TestBusyNested weakened away, run by `script`. */
    const nestedBug = (name: string, script: string) => ({
      name,
      bug: { 'span/span.go': NESTED_BUG },
      weaken: { 'span/span_test.go': dropBlock('func TestBusyNested(') },
      testFiles: GO_TEST_FILES,
      script,
      parser: { file: 'go_test_parser.py' },
    });

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
        testFiles: GO_TEST_FILES,
        script,
        parser: { file: 'go_test_parser.py' },
      });
      // The test vanishes while the rest of its package ran, and the log shows no build error or panic (#30 item 5).
      expectFailsOnly(report, 'bug-validity');
      expect(check(report, 'bug-validity').reason).toBe(
        `1 test(s) vanish from the buggy run and nothing new in its log says why (no loading error or crash, no line naming their file): the test script chooses its tests by the state of the code: ${GO_PKG}/span/TestBusyNested`,
      );
    }, 300_000);

    it('runs a script that gives go test no -count afresh every time: on one container, the second look at a state replays no cached result', async () => {
      const report = await fixture.check(nestedBug('go-no-count', 'go test -v ./... 2>&1'), '--parallel', '1');
      expect(report.valid, summary(report)).toBe(true);
      // One container makes every run: the gold patch's is the original state's second, the reruns the buggy state's.
      const made = report.checks.flatMap((c) => c.runs).filter((r) => !r.reused);
      expect(made.map((r) => r.label)).toEqual(expect.arrayContaining(['original', 'gold patch', 'buggy (run 2)']));
      for (const run of made) expect(readFileSync(run.logPath, 'utf8'), run.label).not.toContain('(cached)');
    }, 300_000);

    it("shares one Go build cache, in memory, between the two containers taking turns, seeded from the image's", async () => {
      const script = 'echo "build cache: $(go env GOCACHE) on $(stat -f -c %T /bugbench-shared)"\ngo test -count=1 -v ./... 2>&1';
      const report = await fixture.check(nestedBug('go-shared-cache', script));
      expect(report.valid, summary(report)).toBe(true);
      const made = report.checks.flatMap((c) => c.runs).filter((r) => !r.reused);
      expect(made.length).toBeGreaterThan(2);
      // A volume in memory: its removal at the end of the check is an unmount, not a walk over the cache's files.
      for (const run of made) expect(readFileSync(run.logPath, 'utf8'), run.label).toContain('build cache: /bugbench-shared/go-build on tmpfs\n');
    }, 300_000);

    it('stays valid when the script always leaves the same unrelated test out', async () => {
      const report = await fixture.check(nestedBug('go-fixed-selection', `go test -count=1 -v -run ${ALL_BUT('TestSortByStart')} ./... 2>&1`));
      expect(report.valid, summary(report)).toBe(true);
      expect(report.FAIL_TO_PASS).toEqual([`${GO_PKG}/span/TestBusyNested`]);
      expect(report.PASS_TO_PASS).not.toContain(`${GO_PKG}/span/TestSortByStart`);
      expect(report.parser).toMatchObject({ status: 'verified', reader: 'go test -v' });
    }, 300_000);
  });
}

/** node: the bench's TypeScript bug, and node 18's TAP over a folder of files. */
function nodeCases(): void {
  it("judges valid the bench's TypeScript bug: two fixes of the vercraft sample undone, each file needed", async () => {
    // test/fixtures/artifacts/ts-valid-two-files, which `npm run bench:checks -- --fixture typescript` times.
    const report = await checkDir(artifactPath('ts-valid-two-files'), '--buggy-runs', '2');
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toHaveLength(3);
    expect(report.parser?.status).toBe('verified');
    expect(check(report, 'inverse-mutation').reason).toBe('every file matters (tests fixed by reverting it alone: src/compare.ts → 1, src/increment.ts → 2)');
  }, 900_000);

  describe("a package tested with node 18's TAP over a folder of files", () => {
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
        testFiles: [...NODE_TEST_FILES, 'test/timers.test.js'],
        script: 'node --test --test-reporter=tap test/ 2>&1',
        parser: { text: lyingParser('node_tap_parser.py', 'textkit: wrapping', 'wrap > breaks at spaces') },
      });
      expect(check(report, 'parser').reason).toMatch(/agrees on every test$/);
      expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
      expect(check(report, 'bug-validity').reason).toBe(
        `the parser disagrees with bugbench's reading (TAP (node --test)) of the "buggy" run's log on 1 test(s): wrap > breaks at spaces: the parser says failed, the log says passed`,
      );
    }, 300_000);
  });
}
