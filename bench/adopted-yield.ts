/**
 * Offline injection yield on the same repository built by `images build` and
 * adopted as another family laid it out (#29): for each pair BUILT=ADOPTED
 * given as arguments, the same strategy, seed and number of rollouts on both,
 * and how many bugs pass all nine checks. The adopted image is adopted first
 * (it is what `inject --image` does for an image bugbench did not build).
 *   BENCH_N (rollouts per image, default 4), BENCH_SEED (default 11), BENCH_STRATEGY (default removal)
 * Example: node dist/bench/adopted-yield.js bugbench/repo-ratekit:latest=mswebench/example_m_ratekit:pr-1
 */
import { DEFAULT_CHECK_PARAMS } from '../src/bugs/meta.js';
import { runInjection } from '../src/pipeline/inject.js';
import { openStore } from '../src/store/store.js';

const N = Number(process.env.BENCH_N ?? 4);
const SEED = Number(process.env.BENCH_SEED ?? 11);
const STRATEGY = (process.env.BENCH_STRATEGY ?? 'removal') as 'removal' | 'history' | 'direct';
const store = openStore();
const rows: { image: string; kind: 'built' | 'adopted'; valid: number; rollouts: number; seconds: number }[] = [];

for (const pair of process.argv.slice(2)) {
  const [built, adopted] = pair.split('=');
  if (!built || !adopted) throw new Error(`expected BUILT=ADOPTED, got ${pair}`);
  for (const [image, kind] of [[built, 'built'], [adopted, 'adopted']] as const) {
    const started = performance.now();
    const result = await runInjection({ image, strategy: STRATEGY, policy: 'offline', n: N, concurrency: 2, seed: SEED, params: { ...DEFAULT_CHECK_PARAMS, buggyRuns: 2 }, maxSteps: 100 }, { store });
    const row = { image, kind, valid: result.bugs.filter((b) => b.valid).length, rollouts: result.rollouts.length, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
    rows.push(row);
    console.log(`${kind.padEnd(7)} ${image}: ${row.valid}/${N} valid (${STRATEGY}, seed ${SEED}), ${row.seconds} s`);
  }
}
console.log(JSON.stringify({ rows, n: N, seed: SEED, strategy: STRATEGY }));
