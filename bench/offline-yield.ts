/**
 * How often the offline injector makes a bug that passes all nine checks, and
 * how long each valid bug takes, per strategy and image. Images: the sample
 * images (Python, Go and TypeScript), plus any given as arguments. The last line
 * printed is the JSON summary.
 *   BENCH_N (rollouts per strategy and image, default 6), BENCH_SEED (default 11),
 *   BENCH_SAMPLES (sample names to keep, comma-separated; default all)
 */
import { DEFAULT_CHECK_PARAMS } from '../src/bugs/meta.js';
import { runInjection } from '../src/pipeline/inject.js';
import { openStore } from '../src/store/store.js';
import { listSamples, sampleImageTag } from '../src/sandbox/docker-api/samples.js';

const N = Number(process.env.BENCH_N ?? 6);
const SEED = Number(process.env.BENCH_SEED ?? 11);
const store = openStore();
const only = process.env.BENCH_SAMPLES?.split(',').map((s) => s.trim());
const samples = listSamples().filter((s) => !only || only.includes(s.name));
const languageOf = new Map(samples.map((s) => [sampleImageTag(s.name), s.language || 'python']));
const images = [...samples.map((s) => sampleImageTag(s.name)), ...process.argv.slice(2)];
const rows: { image: string; language: string; strategy: string; rollouts: number; submitted: number; valid: number; validRate: number; secondsPerValidBug: number | null }[] = [];

for (const image of images) {
  for (const strategy of ['removal', 'history', 'direct'] as const) {
    const started = performance.now();
    const result = await runInjection({
      image,
      strategy,
      policy: 'offline',
      n: N,
      concurrency: 2,
      seed: SEED,
      params: DEFAULT_CHECK_PARAMS,
      maxSteps: 100,
    }, { store });
    const seconds = (performance.now() - started) / 1000;
    const valid = result.bugs.filter((b) => b.valid).length;
    const row = {
      image,
      language: languageOf.get(image) ?? '?',
      strategy,
      rollouts: result.rollouts.length,
      submitted: result.bugs.length,
      valid,
      validRate: Number((valid / N).toFixed(3)),
      secondsPerValidBug: valid > 0 ? Number((seconds / valid).toFixed(1)) : null,
    };
    rows.push(row);
    console.log(`${image} (${row.language}) ${strategy}: ${valid}/${N} valid, ${row.secondsPerValidBug ?? '-'} s per valid bug (wall, 2 at a time, checks included)`);
  }
}
const total = rows.reduce((a, r) => a + r.valid, 0);
console.log(JSON.stringify({ rows, validRate: Number((total / (rows.length * N)).toFixed(3)), n: N, seed: SEED }));
