/** `gold-patch`: the reverse of the bug, evaluated like any solver patch, must solve the task. */
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import { judge } from '../evaluate.js';
import { runProblem } from '../run-problems.js';

export async function goldPatchCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const raw = await ctx.testSpec();
  const run = await ctx.goldRun();
  // Flaky tests are no part of the task (determinism and test-weakening name them).
  const flaky = new Set((await ctx.flakyTests()).map((f) => f.id));
  const spec = { failToPass: raw.failToPass, passToPass: raw.passToPass.filter((id) => !flaky.has(id)) };
  const problem = runProblem(run);
  if (problem) return { verdict: 'fail', reason: problem, runs: [run] };
  const evaluation = judge(run, spec);
  if (!evaluation.solved) {
    const failing = evaluation.failing.slice(0, 5).join(', ');
    return {
      verdict: 'fail',
      reason: `the original code does not pass the evaluation: ${evaluation.failing.length} test(s) fail: ${failing}`,
      runs: [run],
    };
  }
  const total = spec.failToPass.length + spec.passToPass.length;
  return { verdict: 'pass', reason: `the reverse of the bug passes all ${total} FAIL_TO_PASS and PASS_TO_PASS tests`, runs: [run] };
}
