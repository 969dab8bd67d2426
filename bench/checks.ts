/**
 * What the consistency checks cost beyond the tests themselves, on a valid
 * two-file fixture bug, measured in one run:
 *   overheadRatio = wall time of `bugbench check` / the sum of the raw test-script
 *                   runtimes its runs need (each a direct `docker exec` of the same
 *                   script in the same state);
 *   naiveRatio    = the same checks with a fresh container per run (as SWE-bench's
 *                   harness does) / ours.
 * Medians of a few rounds; the last line printed is the JSON summary (testRuns:
 * how many test runs the bug's checks made, the median of the rounds: a
 * workspace's first bug of an image, script and test files makes the original
 * run, which every later one shares (roundTestRuns: each round's, the first
 * one counting it when the workspace had none); roundRatios: each round's check
 * over the raw runs (the runs it made) timed just after it, which a machine whose speed drifts between
 * rounds moves less than the ratio of the medians; fixedMs: the check's wall time
 * beyond its own test scripts' times as its containers timed them, measured in the
 * same process at the same moment, so a machine whose load changes between the raw
 * runs and the check moves it least).
 *
 * `--fixture NAME` (or BENCH_FIXTURE) picks the bug: `python` (the default,
 * pytest on the knotcfg sample), `go` (go test -v on the ratekit sample,
 * the Go parser verified by bugbench's reader) or `typescript` (npm test:
 * tsc, then node --test's TAP, on the vercraft sample). All three break two
 * files, so their runs are the same in number and kind.
 */
import { execa } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadArtifact } from '../src/bugs/artifact.js';
import { buildState } from '../src/bugs/repo-state.js';
import { planRuns, runsOfPlan } from '../src/bugs/run-plan.js';
import { ARTIFACT_MOUNT, installArtifact } from '../src/bugs/test-run.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { defaultContainerEngine, openSandbox } from '../src/sandbox/engine-table.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const NAIVE = process.env.BENCH_NAIVE !== '0';
/** BENCH_RAW=0 times the check alone (fixedMs), without the raw runs overheadRatio needs. */
const RAW = process.env.BENCH_RAW !== '0';
const FIXTURES: Record<string, string> = { python: 'valid-two-files', go: 'go-valid-two-files', typescript: 'ts-valid-two-files' };

function fixtureName(): string {
  const at = process.argv.indexOf('--fixture');
  const name = at >= 0 ? process.argv[at + 1] : process.env.BENCH_FIXTURE;
  if (name === undefined || name === '') return 'python';
  if (!FIXTURES[name]) throw new Error(`no fixture "${name}"; pick one of ${Object.keys(FIXTURES).join(', ')}`);
  return name;
}

const FIXTURE = fixtureName();
const ARTIFACT = join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts', FIXTURES[FIXTURE]!);
const BIN = join(PACKAGE_ROOT, 'bin', 'bugbench.js');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The check's wall time, the sum of its own test-script runs' times (each once, as the container timed it),
 * and the labels of the runs it made (a run shared from another check of the workspace is not one).
 */
async function timeCli(args: string[]): Promise<{ ms: number; scriptMs: number; made: string[] }> {
  const started = performance.now();
  const result = await execa('node', [BIN, ...args], { reject: false });
  const elapsed = performance.now() - started;
  const report = JSON.parse(result.stdout) as { valid: boolean; checks: { runs: { label: string; durationMs: number; reused?: boolean }[] }[] };
  if (!report.valid) throw new Error(`the fixture bug was judged invalid: ${result.stdout.slice(0, 400)}`);
  const runs = new Map(report.checks.flatMap((c) => c.runs.filter((r) => !r.reused).map((r) => [r.label, r.durationMs] as const)));
  return { ms: elapsed, scriptMs: [...runs.values()].reduce((a, b) => a + b, 0), made: [...runs.keys()] };
}

/** The states `bugbench check` ran the tests in for this bug (`made`), each timed with a plain `docker exec`. */
async function rawRuntimes(made: string[]): Promise<number[]> {
  const artifact = loadArtifact(ARTIFACT);
  const base = artifact.meta!.baseCommit!;
  const engine = defaultContainerEngine();
  const sandbox = await openSandbox({ image: artifact.meta!.image.tag, runId: 'bench-checks-raw', engine });
  try {
    await installArtifact(sandbox, artifact);
    // The same runs, in the same states, as the check makes (run-plan.ts).
    const reruns = made.filter((label) => label.startsWith('buggy (run ')).length;
    const runs = runsOfPlan(planRuns(artifact, artifact.bugChanges), artifact, reruns).filter((r) => made.includes(r.label));
    const times: number[] = [];
    const script = `bash ${ARTIFACT_MOUNT}/test_script.sh > /dev/null 2>&1`;
    // An engine of Docker's API is asked with the docker CLI, as a person would; a bwrap sandbox is no container
    // the CLI knows, so its own exec (nsenter) runs the script.
    const direct = engine.type === 'docker-api'
      ? () => execa('docker', ['exec', '-w', '/repo', sandbox.id, 'bash', '-c', script], { reject: false, env: { DOCKER_HOST: engine.host } })
      : () => sandbox.exec(script, { timeoutMs: 600_000 });
    for (const run of runs) {
      await buildState(sandbox, artifact, base, run.layers);
      const started = performance.now();
      const result = await direct();
      times.push(performance.now() - started);
      // The script's output goes to /dev/null: anything on stderr is the engine's or the CLI's, and the time is not the tests'.
      if (result.stderr.trim() !== '' || (result.exitCode ?? 0) >= 125) throw new Error(`the raw run "${run.label}" did not run its tests (exit ${result.exitCode}): ${result.stderr.trim().slice(0, 300)}`);
    }
    console.log(`raw runs (${runs.length}): ${times.map((t) => t.toFixed(0)).join(', ')} ms for ${runs.map((r) => r.label).join(', ')}`);
    return times;
  } finally {
    await sandbox.remove();
  }
}

async function main(): Promise<void> {
  const logs = mkdtempSync(join(tmpdir(), 'bugbench-bench-'));
  const ours: number[] = [];
  const fixed: number[] = [];
  const naive: number[] = [];
  const raw: number[] = [];
  const testRuns: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const check = await timeCli(['check', ARTIFACT, '--json']);
    ours.push(check.ms);
    fixed.push(check.ms - check.scriptMs);
    testRuns.push(check.made.length);
    if (RAW) raw.push((await rawRuntimes(check.made)).reduce((a, b) => a + b, 0));
    // SWE-bench's harness: a new container for every run, one run at a time (BENCH_NAIVE=0 leaves it out).
    if (NAIVE) naive.push((await timeCli(['check', ARTIFACT, '--json', '--fresh-containers', '--parallel', '1'])).ms);
    console.log(`round ${round + 1}: check ${ours.at(-1)!.toFixed(0)} ms, fresh containers ${NAIVE ? naive.at(-1)!.toFixed(0) : '-'} ms, raw sum ${RAW ? raw.at(-1)!.toFixed(0) : '-'} ms, check beyond its own scripts ${fixed.at(-1)!.toFixed(0)} ms, ratio ${RAW ? (ours.at(-1)! / raw.at(-1)!).toFixed(3) : '-'}`);
  }
  const summary = {
    fixture: FIXTURE,
    checkMs: Math.round(median(ours)),
    rawTestScriptSumMs: RAW ? Math.round(median(raw)) : null,
    freshContainerCheckMs: NAIVE ? Math.round(median(naive)) : null,
    overheadRatio: RAW ? Number((median(ours) / median(raw)).toFixed(3)) : null,
    naiveRatio: NAIVE ? Number((median(naive) / median(ours)).toFixed(3)) : null,
    roundRatios: RAW ? ours.map((ms, i) => Number((ms / raw[i]!).toFixed(3))) : null,
    fixedMs: Math.round(median(fixed)),
    roundFixedMs: fixed.map(Math.round),
    testRuns: median(testRuns),
    roundTestRuns: testRuns,
    rounds: ROUNDS,
    logs,
  };
  console.log(JSON.stringify(summary));
}

await main();
