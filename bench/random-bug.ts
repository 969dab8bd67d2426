/**
 * How often a bug that picks its wrong answer at random gets past the checks:
 * `bugbench check` on a coin-flip bug (its one failing test fails on a coin
 * flip on each run), BENCH_N times (default 64), with the default number of
 * buggy runs unless BUGGY_RUNS says otherwise. Each check gets a workspace of
 * its own, made once for the bench, so the original run is shared as it is
 * between bugs of one image. Prints each verdict, then a JSON summary: the
 * count that slipped through, the bound the checks state (2^-runs), and the
 * exact (Clopper-Pearson) 95% interval of the slip rate.
 *
 * `--language NAME` (or BENCH_LANGUAGE) picks the language: `python` (the
 * default: the knotcfg sample's fixtures below) or a row of the checks'
 * language table (go, rust, java, node, cpp, ruby, php), whose fixture
 * repository is built into an image for the bench and whose coin-flip bug is
 * the one the language suite judges (test/helpers/language-table.ts).
 */
import { execa } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BUGGY_RUNS } from '../src/bugs/meta.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { LanguageFixture } from '../test/helpers/language-artifacts.js';
import { LANGUAGES } from '../test/helpers/language-table.js';

const N = Number(process.env.BENCH_N ?? 64);
const RUNS = Number(process.env.BUGGY_RUNS ?? DEFAULT_BUGGY_RUNS);

function option(name: string, env: string): string | undefined {
  const at = process.argv.indexOf(name);
  return (at >= 0 ? process.argv[at + 1] : process.env[env]) || undefined;
}

const LANGUAGE = option('--language', 'BENCH_LANGUAGE') ?? 'python';
const row = LANGUAGES.find((l) => l.name === LANGUAGE);
if (LANGUAGE !== 'python' && !row) throw new Error(`no language "${LANGUAGE}"; pick python or one of ${LANGUAGES.map((l) => l.name).join(', ')}`);
/**
 * Python's fixtures: `--fixture two-files` (or BENCH_FIXTURE) checks the same
 * coin beside a change of a second file that alters nothing: its two reverts
 * count as one run against the coin (one of them keeps it), so it measures
 * that bound too.
 */
const FIXTURES: Record<string, string> = { 'one-file': 'random-wrong-answer', 'two-files': 'random-wrong-answer-two-files' };
const FIXTURE = option('--fixture', 'BENCH_FIXTURE') ?? 'one-file';
if (!FIXTURES[FIXTURE]) throw new Error(`no fixture "${FIXTURE}"; pick one of ${Object.keys(FIXTURES).join(', ')}`);
if (row && FIXTURE !== 'one-file') throw new Error(`--fixture ${FIXTURE} is one of Python's; ${LANGUAGE} has its one-file coin flip only`);
const BIN = join(PACKAGE_ROOT, 'bin', 'bugbench.js');

/** P(X ≤ k) for X ~ Binomial(n, p). */
function binomialCdf(k: number, n: number, p: number): number {
  let term = (1 - p) ** n;
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term *= ((n - i + 1) / i) * (p / (1 - p));
    sum += term;
  }
  return Math.min(1, sum);
}

/** The p where f (monotone decreasing in p) crosses `target`, by bisection. */
function solve(f: (p: number) => number, target: number): number {
  let [lo, hi] = [0, 1];
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The exact two-sided 95% interval of a rate seen k times in n. */
function clopperPearson(k: number, n: number): [number, number] {
  const lower = k === 0 ? 0 : solve((p) => binomialCdf(k - 1, n, p), 0.975);
  const upper = k === n ? 1 : solve((p) => binomialCdf(k, n, p), 0.025);
  return [lower, upper];
}

/** The artifact to judge: Python's fixture folder, or the language's coin flip written from its repository, on its image built now. */
async function coinFlip(): Promise<{ dir: string; name: string; cleanUp: () => Promise<void> }> {
  if (!row) return { dir: join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts', FIXTURES[FIXTURE]!), name: FIXTURES[FIXTURE]!, cleanUp: async () => undefined };
  const fixture = new LanguageFixture(`bugbench-bench/random-${row.name}:latest`, row.make);
  console.log(`building ${row.title} into ${fixture.tag}`);
  await fixture.build();
  const name = `${row.name}-coin-flip`;
  const dir = await fixture.write({ name, script: row.script, testFiles: row.testFiles, parser: { file: row.parser }, ...row.coinFlip });
  return { dir, name, cleanUp: () => fixture.remove() };
}

const artifact = await coinFlip();
const home = mkdtempSync(join(tmpdir(), 'bugbench-random-'));
const outcomes: Record<string, number> = {};
try {
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    const result = await execa('node', [BIN, 'check', artifact.dir, '--json', '--buggy-runs', String(RUNS)], { reject: false, env: { BUGBENCH_HOME: home } });
    if (!result.stdout.trim()) throw new Error(`check ${i + 1} gave no report (exit ${result.exitCode}): ${result.stderr.trim().split('\n').slice(-3).join(' / ')}`);
    const report = JSON.parse(result.stdout) as { valid: boolean; checks: { name: string; verdict: string }[] };
    const outcome = report.valid ? 'valid (slipped through)' : `invalid: ${report.checks.find((c) => c.verdict === 'fail')?.name ?? 'no check failed'}`;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    console.log(`check ${i + 1}/${N}: ${outcome} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
} finally {
  await artifact.cleanUp();
}
const slipped = outcomes['valid (slipped through)'] ?? 0;
const [low, high] = clopperPearson(slipped, N);
console.log(
  JSON.stringify({
    language: LANGUAGE,
    fixture: artifact.name,
    checks: N,
    buggyRuns: RUNS,
    slipped,
    slipRate: Number((slipped / N).toFixed(4)),
    interval95: [Number(low.toFixed(4)), Number(high.toFixed(4))],
    bound: 2 ** -RUNS,
    expectedSlipped: Number((N * 2 ** -RUNS).toFixed(2)),
    outcomes,
  }),
);
