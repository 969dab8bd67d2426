/**
 * How often a bug that picks its wrong answer at random gets past the checks:
 * `bugbench check` on the random-wrong-answer fixture (its one failing test
 * fails on a coin flip on each run), BENCH_N times (default 20), with the
 * default number of buggy runs unless BUGGY_RUNS says otherwise. Prints each
 * verdict, then a JSON summary with the count that slipped through and the
 * count expected (N · 2^-runs).
 */
import { execa } from 'execa';
import { join } from 'node:path';
import { DEFAULT_BUGGY_RUNS } from '../src/bugs/meta.js';
import { PACKAGE_ROOT } from '../src/paths.js';

const N = Number(process.env.BENCH_N ?? 20);
const RUNS = Number(process.env.BUGGY_RUNS ?? DEFAULT_BUGGY_RUNS);
const ARTIFACT = join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts', 'random-wrong-answer');
const BIN = join(PACKAGE_ROOT, 'bin', 'bugbench.js');

const outcomes: Record<string, number> = {};
for (let i = 0; i < N; i++) {
  const started = performance.now();
  const result = await execa('node', [BIN, 'check', ARTIFACT, '--json', '--buggy-runs', String(RUNS)], { reject: false });
  const report = JSON.parse(result.stdout) as { valid: boolean; checks: { name: string; verdict: string }[] };
  const outcome = report.valid ? 'valid (slipped through)' : `invalid: ${report.checks.find((c) => c.verdict === 'fail')?.name ?? 'no check failed'}`;
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  console.log(`check ${i + 1}/${N}: ${outcome} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
const slipped = outcomes['valid (slipped through)'] ?? 0;
console.log(JSON.stringify({ checks: N, buggyRuns: RUNS, slipped, expectedSlipped: Number((N * 2 ** -RUNS).toFixed(2)), outcomes }));
