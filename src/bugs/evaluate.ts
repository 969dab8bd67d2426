/**
 * Evaluating a candidate patch (SPEC §5): from the original, apply the bug, the
 * weakening, the parent's prediction if any, then the candidate; put every
 * oracle test file back to the original, and any test infrastructure the
 * candidate touched; run the tests. Solved iff every FAIL_TO_PASS and
 * PASS_TO_PASS test is present and passed — so editing the tests, a
 * conftest.py or the test configuration gains nothing (candidate-setup.ts).
 */
import { CancelledError, PatchRejectedError } from '../errors.js';
import { candidateSetup } from './candidate-setup.js';
import { CheckContext, type CheckSetup } from './check-context.js';
import { runProblem } from './run-problems.js';
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
  /** The context's work was cancelled while the patch was being judged: no verdict. */
  cancelled?: boolean;
}

/**
 * Judges a finished evaluation run against the spec. A run without a
 * trustworthy map (timed out, no parser output, a parser contradicting the
 * log) solves nothing, whatever it printed before.
 */
export function judge(run: RunRecord, spec: TestSpec): Evaluation {
  const required = [...spec.failToPass, ...spec.passToPass];
  const failing = notPassingAmong(required, run.results);
  const problem = runProblem(run);
  if (problem) return { solved: false, failing, results: run.results, run, error: problem };
  return { solved: required.length > 0 && failing.length === 0, failing, results: run.results, run };
}

/** The layers of an evaluation: everything the solver started from, the candidate, and the oracle tests (and `restore`) put back. */
export function evaluationLayers(candidate: string, restore: string[] = []) {
  return { bug: true, weaken: true, candidate, restoreTests: true, restorePaths: restore };
}

/** Runs one candidate in the first free lane of a context; a patch that does not apply is not solved. */
export async function evaluateInContext(ctx: CheckContext, patch: string, spec: TestSpec, label: string): Promise<Evaluation> {
  try {
    const setup = await candidateSetup(await ctx.sandbox(), ctx.artifact, ctx.base, patch, label);
    const run = await ctx.run('evaluate', label, evaluationLayers(patch, setup.restore), 'candidate-patch');
    const judged = judge(run, spec);
    return setup.tampering ? { ...judged, solved: false, error: setup.tampering } : judged;
  } catch (error) {
    if (error instanceof PatchRejectedError) {
      return { solved: false, failing: [...spec.failToPass, ...spec.passToPass], results: {}, error: `the patch does not apply: ${error.message}` };
    }
    // Whatever failed once the work was cancelled failed because its containers went: not a verdict, not an error.
    if (error instanceof CancelledError || ctx.setup.signal?.aborted) {
      return { solved: false, failing: [], results: {}, error: 'the evaluation was cancelled', cancelled: true };
    }
    throw error;
  }
}

/**
 * Evaluates one patch with its own containers. Without a known spec, the
 * original and buggy runs that define it are made first.
 */
export async function evaluatePatch(setup: CheckSetup, patch: string, known?: TestSpec): Promise<Evaluation & TestSpec> {
  const ctx = new CheckContext(setup);
  try {
    const spec = known ?? (await ctx.testSpec());
    const evaluation = await evaluateInContext(ctx, patch, spec, 'candidate patch');
    return { ...evaluation, ...spec };
  } finally {
    await ctx.close();
  }
}
