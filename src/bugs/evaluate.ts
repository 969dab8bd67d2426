/**
 * Evaluating a candidate patch (SPEC §5): from the original, apply the bug, the
 * weakening, the parent's prediction if any, then the candidate; put every
 * oracle test file back to the original; run the tests. Solved iff every
 * FAIL_TO_PASS and PASS_TO_PASS test is present and passed — so editing the
 * tests gains nothing.
 */
import { PatchRejectedError } from '../errors.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { BugArtifact } from './artifact.js';
import { CheckContext, type CheckSetup } from './check-context.js';
import { touchedPaths } from './diff.js';
import { buildState } from './repo-state.js';
import type { RunRecord } from './test-run.js';
import { notPassingAmong, type TestMap } from './test-results.js';

export interface TestSpec {
  failToPass: string[];
  passToPass: string[];
}

export interface Evaluation {
  solved: boolean;
  /** Spec tests that did not pass (failed or missing). */
  failing: string[];
  results: TestMap;
  /** Why the patch could not even be run (it did not apply). */
  error?: string;
  run?: RunRecord;
}

/** The patch that takes the buggy state back to the original code: the reverse of the bug (and of a parent prediction). */
export async function goldPatch(sandbox: Sandbox, artifact: BugArtifact, base: string): Promise<string> {
  await buildState(sandbox, artifact, base, { bug: true, weaken: true });
  const testFiles = new Set(artifact.testFiles);
  const code = touchedPaths([...artifact.bugChanges, ...artifact.predChanges]).filter((p) => !testFiles.has(p));
  return sandbox.diff(code, { reverse: true });
}

export async function evaluateIn(ctx: CheckContext, sandbox: Sandbox, patch: string, spec: TestSpec, label: string): Promise<Evaluation> {
  const required = [...spec.failToPass, ...spec.passToPass];
  const layers = { bug: true, weaken: true, candidate: patch, restoreTests: true };
  let run: RunRecord;
  try {
    run = await ctx.runIn(sandbox, label, layers);
  } catch (error) {
    if (error instanceof PatchRejectedError) {
      return { solved: false, failing: required, results: {}, error: `the patch does not apply: ${error.message}` };
    }
    throw error;
  }
  const failing = notPassingAmong(required, run.results);
  return { solved: required.length > 0 && failing.length === 0, failing, results: run.results, run };
}

/**
 * Evaluates one patch in its own container. Without a known spec, the original
 * and buggy runs that define it are made first.
 */
export async function evaluatePatch(setup: CheckSetup, patch: string, known?: TestSpec): Promise<Evaluation & TestSpec> {
  const ctx = new CheckContext(setup);
  try {
    const spec = known ?? (await ctx.testSpec());
    const evaluation = await evaluateIn(ctx, await ctx.sandbox(), patch, spec, 'candidate patch');
    return { ...evaluation, ...spec };
  } finally {
    await ctx.close();
  }
}
