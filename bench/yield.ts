/**
 * The yield table, in SWE-smith's column layout (its Table 1), for each sample
 * image and injection strategy: the offline policy always, and the model's
 * policy too when an API key or a base URL is set (ANTHROPIC_API_KEY,
 * OPENAI_BASE_URL). For each row:
 *   candidates      rollouts started;
 *   submitted       rollouts that submitted a bug;
 *   valid, yield %  bugs that passed all nine checks, and valid / candidates;
 *   runs/bug        test-script runs a submitted bug's checks made (mean, from its report.json; the
 *                   original's runs another bug of the image made, and this one reused, not counted);
 *   CPU s/valid     container CPU seconds (the engine's count for each container's cgroup,
 *                   rollouts and checks both) per valid bug;
 *   wall s/valid    wall seconds per valid bug (2 rollouts at a time, checks included);
 *   lines, files    median lines and files changed by a valid bug's bug_inject.diff;
 *   solve %         solve rate of the offline solver mix (oracle, partial, noop) on the valid bugs.
 * Prints the table as Markdown, then a JSON summary as the last line.
 *   BENCH_N (rollouts per row, default 6), BENCH_SEED (default 11),
 *   BENCH_SAMPLES (sample names to keep, comma-separated; default all),
 *   BENCH_SOLVE_K (solver attempts per valid bug, default 3; 0 skips solving),
 *   BENCH_SOLVE_BUGS (valid bugs per row that are solved, default 2).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { availablePolicies, usesModel, type PolicyName } from '../src/agent/policies.js';
import { DEFAULT_CHECK_PARAMS } from '../src/bugs/meta.js';
import { patchStats } from '../src/bugs/patch-stats.js';
import { runInjection, type InjectStrategy } from '../src/pipeline/inject.js';
import { DEFAULT_SOLVE, solveBug } from '../src/pipeline/solve.js';
import { startCpuMeter } from '../src/sandbox/cpu-meter.js';
import { listSamples, sampleImageTag } from '../src/sandbox/docker-api/samples.js';
import { Store } from '../src/store/store.js';
import { yieldTable, median, type YieldRow } from './yield-table.js';

const N = Number(process.env.BENCH_N ?? 6);
const SEED = Number(process.env.BENCH_SEED ?? 11);
const SOLVE_K = Number(process.env.BENCH_SOLVE_K ?? 3);
const SOLVE_BUGS = Number(process.env.BENCH_SOLVE_BUGS ?? 2);
const OFFLINE_STRATEGIES: InjectStrategy[] = ['removal', 'history', 'direct'];
const MODEL_STRATEGIES: InjectStrategy[] = ['removal', 'history', 'direct', 'buginstruct'];

/** Where a container's CPU went, by its run id: `<rollout>-check` (a check lane), `<rollout>-check-parser`, else the rollout's own. */
function cpuParts(byRun: ReadonlyMap<string, number>, valid: number): YieldRow['cpuSecondsPerValidBy'] {
  if (valid === 0) return null;
  const parts = { rollouts: 0, checks: 0, parser: 0 };
  for (const [runId, seconds] of byRun) {
    const part = runId.endsWith('-check-parser') ? 'parser' : runId.endsWith('-check') ? 'checks' : 'rollouts';
    parts[part] += seconds / valid;
  }
  return parts;
}

/** How many test-script runs a bug's checks made: every run its report lists, once, but those reused from another bug of the image. */
function checkRuns(store: Store, checkDir: string | null | undefined, bugFolder: string): number {
  if (!checkDir) return 0;
  const report = JSON.parse(readFileSync(join(bugFolder, checkDir, 'report.json'), 'utf8')) as { checks: { runs: { logPath: string; reused?: boolean }[] }[] };
  return new Set(report.checks.flatMap((c) => c.runs.filter((r) => !r.reused).map((r) => r.logPath))).size;
}

async function measureRow(store: Store, sample: { name: string; language: string }, policy: PolicyName, strategy: InjectStrategy): Promise<YieldRow> {
  const image = sampleImageTag(sample.name);
  const meter = startCpuMeter();
  const started = performance.now();
  const result = await runInjection(
    { image, strategy, policy, n: N, concurrency: 2, seed: SEED, params: DEFAULT_CHECK_PARAMS, maxSteps: 100 },
    { store },
  );
  const wallSeconds = (performance.now() - started) / 1000;
  meter.stop();
  const cpu = meter.total();
  const submitted = result.bugs.map((b) => ({ injected: b, record: store.get('bugs', b.id)! }));
  const valid = submitted.filter((b) => b.injected.valid);
  const runs = submitted.map((b) => checkRuns(store, b.record.check?.dir, b.injected.artifactDir));
  const stats = valid.map((b) => patchStats(readFileSync(join(b.injected.artifactDir, 'bug_inject.diff'), 'utf8'), () => 0, 'none'));
  let solved = 0;
  let attempts = 0;
  if (SOLVE_K > 0) {
    for (const bug of valid.slice(0, SOLVE_BUGS)) {
      const solve = await solveBug({ ...DEFAULT_SOLVE, bugId: bug.injected.id, policy: 'offline', solver: 'mix', k: SOLVE_K, concurrency: 2, seed: SEED }, { store });
      attempts += solve.attempts.length;
      solved += Math.round(solve.solveRate * solve.attempts.length);
    }
  }
  return {
    sample: sample.name,
    language: sample.language,
    policy,
    strategy,
    candidates: result.yield.rollouts,
    submitted: result.yield.submitted,
    valid: valid.length,
    testRunsPerBug: runs.length ? runs.reduce((a, b) => a + b, 0) / runs.length : null,
    cpuSecondsPerValid: valid.length ? cpu.cpuSeconds / valid.length : null,
    cpuSecondsPerValidBy: cpuParts(meter.byRun(), valid.length),
    containers: cpu.containers,
    unreadContainers: cpu.unread,
    wallSecondsPerValid: valid.length ? wallSeconds / valid.length : null,
    medianLines: median(stats.map((s) => s.linesOfCode + s.linesOfDocumentation)),
    medianFiles: median(stats.map((s) => s.filesEdited + s.filesCreated + s.filesDeleted)),
    solveRate: attempts ? solved / attempts : null,
  };
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bugbench-bench-yield-'));
  try {
    const store = Store.open({ root });
    const only = process.env.BENCH_SAMPLES?.split(',').map((s) => s.trim());
    const samples = listSamples()
      .filter((s) => !only || only.includes(s.name))
      .map((s) => ({ name: s.name, language: s.language || 'python' }));
    const model = availablePolicies().find(usesModel);
    const plan: [PolicyName, InjectStrategy[]][] = [['offline', OFFLINE_STRATEGIES], ...(model ? [[model, MODEL_STRATEGIES] as [PolicyName, InjectStrategy[]]] : [])];
    const rows: YieldRow[] = [];
    for (const sample of samples) {
      for (const [policy, strategies] of plan) {
        for (const strategy of strategies) {
          const row = await measureRow(store, sample, policy, strategy);
          rows.push(row);
          process.stderr.write(`${row.sample} ${row.policy}/${row.strategy}: ${row.valid}/${row.candidates} valid, ${row.cpuSecondsPerValid?.toFixed(1) ?? '-'} CPU s and ${row.wallSecondsPerValid?.toFixed(1) ?? '-'} wall s per valid bug, ${row.testRunsPerBug?.toFixed(1) ?? '-'} test runs a bug\n`);
        }
      }
    }
    console.log(yieldTable(rows));
    console.log(JSON.stringify({ n: N, seed: SEED, solveK: SOLVE_K, solveBugs: SOLVE_BUGS, rows }));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
