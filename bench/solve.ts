/**
 * What solving costs beyond the tests: 8 offline solver attempts (mix) on a
 * sample bug, 2 at a time, then
 *   overheadRatio = wall time ÷ (sum of the attempts' test-run times ÷ 2),
 * the 2 being the attempts run at once. An attempt's test-run time is what its
 * evaluation's test script took plus the test runs its agent made (the offline
 * solvers, like agents, run the oracle tests before and after their change),
 * read from its trajectory. Target ≤ 1.5. The last line printed is the JSON summary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrajectory } from '../src/agent/trajectory.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { importArtifact } from '../src/pipeline/import.js';
import { DEFAULT_SOLVE, solveBug } from '../src/pipeline/solve.js';
import { defaultContainerEngine } from '../src/sandbox/engine-table.js';
import { Store } from '../src/store/store.js';

const ATTEMPTS = 8;

/** Time the attempt's agent spent in tool calls that ran pytest. */
function agentTestMs(trajectory: string): number {
  return readTrajectory(trajectory).events.reduce((sum, e) => {
    if (e.type !== 'tool-call-finished' || e.name !== 'bash') return sum;
    return /pytest/.test(String((e.input as { command?: string }).command)) ? sum + e.durationMs : sum;
  }, 0);
}
const AT_ONCE = 2;

async function main(): Promise<void> {
  await defaultContainerEngine().reapOrphans();
  const root = mkdtempSync(join(tmpdir(), 'bugbench-bench-solve-'));
  try {
    const store = Store.open({ root });
    const artifact = join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts', 'valid-two-files');
    const { bug } = await importArtifact({ folder: artifact, analysis: { policy: 'offline' } }, { store });
    if (!bug.check?.valid) throw new Error(`the sample bug is not valid: ${bug.check?.reason}`);
    const rounds: { wallMs: number; evalRunMsSum: number }[] = [];
    for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 2); round++) {
      const started = performance.now();
      const result = await solveBug({ ...DEFAULT_SOLVE, bugId: bug.id, policy: 'offline', k: ATTEMPTS, concurrency: AT_ONCE, solver: 'mix', seed: round }, { store });
      const wallMs = performance.now() - started;
      const evalRunMsSum = result.attempts.reduce((sum, a) => sum + (a.evalRunMs ?? 0) + agentTestMs(a.trajectory), 0);
      rounds.push({ wallMs, evalRunMsSum });
      process.stderr.write(`round ${round + 1}: ${(wallMs / 1000).toFixed(1)} s wall, ${(evalRunMsSum / 1000).toFixed(1)} s of evaluation test runs, solve rate ${result.solveRate.toFixed(3)}\n`);
    }
    const best = rounds.sort((a, b) => a.wallMs / a.evalRunMsSum - b.wallMs / b.evalRunMsSum)[Math.floor(rounds.length / 2)]!;
    console.log(
      JSON.stringify({
        attempts: ATTEMPTS,
        wallMs: Math.round(best.wallMs),
        evalRunMsSum: Math.round(best.evalRunMsSum),
        overheadRatio: Number((best.wallMs / (best.evalRunMsSum / AT_ONCE)).toFixed(2)),
      }),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
