/**
 * The same offline injection (BENCH_N rollouts, default 6, seed 11, removal on
 * knotcfg) on one engine and on two: the default engine and a second dockerd
 * on this machine (scripts/second-engine-up; stopped again if started here).
 * One engine runs SLOTS rollouts at once (default 2); two engines get SLOTS
 * slots each and the run 2·SLOTS at once — adding an engine adds its slots.
 * The image is copied to the second engine before the clock starts (the copy
 * is timed apart). Each run has a fresh workspace. A third run, the control,
 * puts 2·SLOTS rollouts at once on the one engine (oneEngineSameConcurrencyMs):
 * on one machine, that is what a second engine there amounts to.
 *
 * Last line: {"oneEngineMs","twoEnginesMs","placementSkew","lostRollouts", …}
 * - placementSkew: the largest difference in rollouts between the two engines;
 * - lostRollouts: rollouts of either run that ended without a result (error,
 *   cancelled, interrupted, never run);
 * - sameVerdicts: each rollout made the same bug with the same verdict on both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { DEFAULT_CHECK_PARAMS } from '../src/bugs/meta.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { runInjection } from '../src/pipeline/inject.js';
import { dockerClient } from '../src/sandbox/docker-api/client.js';
import { openEngine } from '../src/sandbox/engines.js';
import { ensureImageOnEngines } from '../src/sandbox/docker-api/image-copy.js';
import { reapOrphansEverywhere } from '../src/sandbox/orphans.js';
import { Store } from '../src/store/store.js';

const IMAGE = process.env.BENCH_IMAGE ?? 'bugbench/repo-knotcfg:latest';
const N = Number(process.env.BENCH_N ?? 6);
const SLOTS = Number(process.env.BENCH_SLOTS ?? 2);
const FIRST = 'unix:///var/run/docker.sock';
const ENGINE2_DIR = process.env.BUGBENCH_ENGINE2_DIR || '/tmp/bugbench-docker2';
const LOST = ['error', 'cancelled', 'interrupted', 'pending', 'running'];

interface Measured {
  ms: number;
  outcomes: string[];
  perEngine: Record<string, number>;
  lost: number;
}

async function run(dockerHost: string, concurrency: number): Promise<Measured> {
  process.env.DOCKER_HOST = dockerHost;
  const root = mkdtempSync(join(tmpdir(), 'bugbench-bench-scale-'));
  try {
    const store = Store.open({ root });
    const started = performance.now();
    const result = await runInjection({ image: IMAGE, strategy: 'removal', policy: 'offline', n: N, concurrency, seed: 11, params: DEFAULT_CHECK_PARAMS, maxSteps: 100 }, { store });
    const ms = Math.round(performance.now() - started);
    const rollouts = store.all('rollouts').filter((r) => r.runId === result.runId).sort((a, b) => a.index - b.index);
    const perEngine: Record<string, number> = {};
    for (const r of rollouts) perEngine[r.engine ?? '?'] = (perEngine[r.engine ?? '?'] ?? 0) + 1;
    const outcomes = rollouts.map((r) => {
      const bug = r.bugId ? store.get('bugs', r.bugId) : undefined;
      return `${r.status} ${bug?.fingerprint ?? '-'} ${bug?.check ? (bug.check.valid ? 'valid' : `invalid:${bug.check.failedCheck}`) : '-'}`;
    });
    const lost = rollouts.filter((r) => LOST.includes(r.status)).length;
    process.stderr.write(`${dockerHost.split(',').length} engine(s): ${(ms / 1000).toFixed(1)} s, rollouts per engine ${JSON.stringify(perEngine)}, ${result.yield.valid} valid of ${N}\n`);
    return { ms, outcomes, perEngine, lost };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const up = await execa(join(PACKAGE_ROOT, 'scripts', 'second-engine-up'), [ENGINE2_DIR], { reject: false });
  if (up.exitCode !== 0) throw new Error(`scripts/second-engine-up failed:\n${up.stderr}`);
  const startedHere = !up.stderr.includes('already up');
  const second = up.stdout.trim();
  try {
    process.env.DOCKER_HOST = `${FIRST},${second}`;
    await reapOrphansEverywhere();
    const copyStarted = performance.now();
    const engines = await Promise.all([openEngine({ name: 'e1', host: FIRST }), openEngine({ name: 'e2', host: second })]);
    const copiedTo = await ensureImageOnEngines(IMAGE, engines.map((e) => ({ name: e.name, engine: e.port })));
    const copyMs = Math.round(performance.now() - copyStarted);
    process.stderr.write(copiedTo.length > 0 ? `copied ${IMAGE} to the second engine in ${(copyMs / 1000).toFixed(1)} s\n` : `${IMAGE} is already on both engines\n`);

    const one = await run(FIRST, SLOTS);
    const two = await run(`${FIRST}?slots=${SLOTS}&name=e1,${second}?slots=${SLOTS}&name=e2`, 2 * SLOTS);
    // The control: as many rollouts at once on the one engine, to tell what the second engine brings from what more concurrency brings.
    const oneWide = await run(FIRST, 2 * SLOTS);
    const counts = ['e1', 'e2'].map((e) => two.perEngine[e] ?? 0);
    console.log(
      JSON.stringify({
        oneEngineMs: one.ms,
        twoEnginesMs: two.ms,
        placementSkew: Math.max(...counts) - Math.min(...counts),
        lostRollouts: one.lost + two.lost + oneWide.lost,
        oneEngineSameConcurrencyMs: oneWide.ms,
        rollouts: N,
        slotsPerEngine: SLOTS,
        rolloutsPerEngine: two.perEngine,
        sameVerdicts: JSON.stringify(one.outcomes) === JSON.stringify(two.outcomes) && JSON.stringify(one.outcomes) === JSON.stringify(oneWide.outcomes),
        speedup: Number((one.ms / two.ms).toFixed(2)),
        imageCopyMs: copiedTo.length > 0 ? copyMs : null,
        cpus: (await dockerClient(FIRST).info()).NCPU,
      }),
    );
  } finally {
    if (startedHere) await execa(join(PACKAGE_ROOT, 'scripts', 'second-engine-down'), [ENGINE2_DIR], { reject: false });
  }
}

await main();
