/**
 * `inverse-mutation`: every file the bug changes must matter. From the full
 * buggy state, revert one file at a time and run the oracle tests; some test the
 * bug broke must pass again, else that file is not needed. The reverts are
 * spread over the context's lanes.
 */
import { fileOf, type CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import { runProblem } from '../run-problems.js';
import { passingAmong } from '../test-results.js';

export async function inverseMutationCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const { failToPass } = await ctx.testSpec();
  if (failToPass.length === 0) return { verdict: 'fail', reason: 'the bug breaks no test, so no file can be shown to matter', runs: [] };
  const changes = ctx.codeChanges();
  if (changes.length === 1 && ctx.artifact.predChanges.length === 0) {
    return {
      verdict: 'pass',
      reason: `the bug changes one file (${fileOf(changes[0]!)}); reverting it restores the original code, where all ${failToPass.length} broken test(s) pass`,
      runs: [],
    };
  }
  const runs = await Promise.all(changes.map((change) => ctx.revertRun(change)));
  const unusable = runs.map(runProblem).find((p) => p !== undefined);
  if (unusable) return { verdict: 'fail', reason: unusable, runs };
  const fixed = runs.map((run) => passingAmong(failToPass, run.results).length);
  const unneeded = changes.filter((_, i) => fixed[i] === 0);
  if (unneeded.length > 0) {
    return {
      verdict: 'fail',
      reason: `reverting ${unneeded.map(fileOf).join(', ')} alone fixes none of the ${failToPass.length} broken test(s): not needed for the bug`,
      runs,
    };
  }
  const counts = changes.map((c, i) => `${fileOf(c)} → ${fixed[i]}`);
  return { verdict: 'pass', reason: `every file matters (tests fixed by reverting it alone: ${counts.join(', ')})`, runs };
}
