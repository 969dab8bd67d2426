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
 * one counting it when the workspace had none); roundRatios: each round's check over
 * the raw runs timed just before it, which a machine whose speed drifts between
 * rounds moves less than the ratio of the medians).
 *
 * `--fixture NAME` (or BENCH_FIXTURE) picks the bug: `python` (the default,
 * pytest on the knotcfg sample) or `go` (go test -v on the ratekit sample,
 * the Go parser verified by bugbench's reader). Both break two files, so
 * their runs are the same in number and kind.
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
import { openSandbox } from '../src/sandbox/engine-table.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FIXTURES: Record<string, string> = { python: 'valid-two-files', go: 'go-valid-two-files' };

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

interface Timed {
  ms: number;
  /** The labels of the test runs the check made (runs shared from another check are not counted). */
  made: string[];
}

async function timeCli(args: string[]): Promise<Timed> {
  const started = performance.now();
  const result = await execa('node', [BIN, ...args], { reject: false });
  const ms = performance.now() - started;
  const report = JSON.parse(result.stdout) as { valid: boolean; checks: { runs: { label: string; reused?: boolean }[] }[] };
  if (!report.valid) throw new Error(`the fixture bug was judged invalid: ${result.stdout.slice(0, 400)}`);
  const made = [...new Set(report.checks.flatMap((c) => c.runs.filter((r) => !r.reused).map((r) => r.label)))];
  return { ms, made };
}

/** The states `bugbench check` ran the tests in for this bug (`made`), each timed with a plain `docker exec`. */
async function rawRuntimes(made: string[]): Promise<number[]> {
  const artifact = loadArtifact(ARTIFACT);
  const base = artifact.meta!.baseCommit!;
  const sandbox = await openSandbox({ image: artifact.meta!.image.tag, runId: 'bench-checks-raw' });
  try {
    await installArtifact(sandbox, artifact);
    // The same runs, in the same states, as the check makes (run-plan.ts).
    const reruns = made.filter((label) => label.startsWith('buggy (run ')).length;
    const runs = runsOfPlan(planRuns(artifact, artifact.bugChanges), artifact, reruns).filter((r) => made.includes(r.label));
    const times: number[] = [];
    for (const run of runs) {
      await buildState(sandbox, artifact, base, run.layers);
      const started = performance.now();
      await execa('docker', ['exec', '-w', '/repo', sandbox.id, 'bash', '-c', `bash ${ARTIFACT_MOUNT}/test_script.sh > /dev/null 2>&1`], { reject: false });
      times.push(performance.now() - started);
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
  const naive: number[] = [];
  const raw: number[] = [];
  const testRuns: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const check = await timeCli(['check', ARTIFACT, '--json']);
    const times = await rawRuntimes(check.made);
    testRuns.push(check.made.length);
    raw.push(times.reduce((a, b) => a + b, 0));
    ours.push(check.ms);
    // SWE-bench's harness: a new container for every run, one run at a time.
    naive.push((await timeCli(['check', ARTIFACT, '--json', '--fresh-containers', '--parallel', '1'])).ms);
    console.log(`round ${round + 1}: check ${ours.at(-1)!.toFixed(0)} ms, fresh containers ${naive.at(-1)!.toFixed(0)} ms, raw sum ${raw.at(-1)!.toFixed(0)} ms, ratio ${(ours.at(-1)! / raw.at(-1)!).toFixed(3)}`);
  }
  const summary = {
    fixture: FIXTURE,
    checkMs: Math.round(median(ours)),
    rawTestScriptSumMs: Math.round(median(raw)),
    freshContainerCheckMs: Math.round(median(naive)),
    overheadRatio: Number((median(ours) / median(raw)).toFixed(3)),
    naiveRatio: Number((median(naive) / median(ours)).toFixed(3)),
    roundRatios: ours.map((ms, i) => Number((ms / raw[i]!).toFixed(3))),
    testRuns: median(testRuns),
    roundTestRuns: testRuns,
    rounds: ROUNDS,
    logs,
  };
  console.log(JSON.stringify(summary));
}

await main();
