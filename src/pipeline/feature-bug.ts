/**
 * FeatAdd's bug, found afterwards (BugPilot 3.2): the tests the agent ran are
 * run by bugbench on the original code and with the feature; if no test that
 * passed before fails, there is no bug — a normal outcome. Otherwise the
 * feature becomes bug_inject.diff and bugbench writes test_weaken.diff by
 * deleting the tests that broke (feature-weakening.ts), so a solver does not
 * see them (as in SWE-bench), and the artifact is ready for the nine checks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerEngine } from '../sandbox/port.js';
import { ARTIFACT_FILES, loadArtifact } from '../bugs/artifact.js';
import { CheckContext } from '../bugs/check-context.js';
import { parseDiffFiles } from '../bugs/diff.js';
import type { CheckParams } from '../bugs/meta.js';
import { brokenTests, type TestMap } from '../bugs/test-results.js';
import { openSandbox } from '../sandbox/engine-table.js';
import { featureWeakening } from './feature-weakening.js';

export type FeatureVerdict = { kind: 'broke'; broken: string[]; weakenedFiles: number } | { kind: 'no-bug'; passed: number } | { kind: 'unusable'; reason: string };

/** The weakening written in a container of its own: a diff over the test files, or why it cannot be written. */
async function weakening(image: string, baseCommit: string, testFiles: string[], broken: string[], before: TestMap, after: TestMap, runId: string, engine?: ContainerEngine) {
  const sandbox = await openSandbox({ image, runId, engine });
  try {
    return await featureWeakening(sandbox, baseCommit, testFiles, broken, before, after);
  } finally {
    await sandbox.remove();
  }
}

/** Runs the staged feature's tests and, if it broke any, completes the artifact with the weakening. */
export async function findFeatureBug(staging: string, setup: { image: string; baseCommit: string; params: CheckParams; runId: string; signal?: AbortSignal; engine?: ContainerEngine }): Promise<FeatureVerdict> {
  const artifact = loadArtifact(staging);
  const ctx = new CheckContext({
    artifact,
    image: setup.image,
    baseCommit: setup.baseCommit,
    params: setup.params,
    logDir: join(staging, 'found'),
    parallelism: 2,
    runId: setup.runId,
    // The rollout's engine: the weakening's container below goes there too.
    engine: setup.engine,
  });
  const onAbort = () => void ctx.close();
  setup.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const [original, feature] = await Promise.all([ctx.originalRun(), ctx.buggyRun()]);
    for (const [run, state] of [
      [original, 'original'],
      [feature, 'feature'],
    ] as const) {
      if (run.timedOut) return { kind: 'unusable', reason: `the agent's test script timed out after ${setup.params.testTimeoutSec} s on the ${state} code` };
      if (run.parser.error) return { kind: 'unusable', reason: `the agent's test parser failed on the ${state} code's log: ${run.parser.error}` };
    }
    const broken = brokenTests(original.results, feature.results);
    if (broken.length === 0) return { kind: 'no-bug', passed: Object.values(original.results).filter((s) => s === 'passed').length };
    const weaken = await weakening(setup.image, setup.baseCommit, artifact.testFiles, broken, original.results, feature.results, `${setup.runId}-weaken`, setup.engine);
    if ('reason' in weaken) return { kind: 'unusable', reason: `the feature broke ${broken.length} test(s), but ${weaken.reason}` };
    writeFileSync(join(staging, ARTIFACT_FILES.testWeaken), weaken.diff);
    return { kind: 'broke', broken, weakenedFiles: weaken.diff.trim() === '' ? 0 : parseDiffFiles(weaken.diff).length };
  } finally {
    setup.signal?.removeEventListener('abort', onAbort);
    await ctx.close();
  }
}
