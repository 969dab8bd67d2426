/** `bug-validity` and `test-weakening`: the tests on the buggy state, with and without the weakening. */
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import { runProblem } from '../run-problems.js';
import { brokenTests } from '../test-results.js';
import { describeWeakening, weakenedCount } from '../weakening.js';

function list(ids: string[], max = 5): string {
  return `${ids.slice(0, max).join(', ')}${ids.length > max ? `, … (${ids.length} in all)` : ''}`;
}

export async function bugValidityCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const original = await ctx.originalRun();
  const buggy = await ctx.buggyRun();
  const problem = runProblem(buggy) ?? runProblem(original);
  // A run without a trustworthy map says nothing about which tests break.
  if (problem) return { verdict: 'fail', reason: problem, runs: [buggy] };
  const broken = brokenTests(original.results, buggy.results);
  const need = ctx.params.minFailingTests;
  if (broken.length < need) {
    return { verdict: 'fail', reason: `${broken.length} passing test(s) fail with the bug; at least ${need} required`, runs: [buggy] };
  }
  return { verdict: 'pass', reason: `${broken.length} test(s) break: ${list(broken)}`, runs: [buggy] };
}

export async function testWeakeningCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const { failToPass } = await ctx.testSpec();
  const weakened = await ctx.weakenedRun();
  if (ctx.artifact.weakenChanges.length === 0) {
    return { verdict: 'fail', reason: 'test_weaken.diff is empty: nothing hides the bug', runs: [weakened] };
  }
  // Without a trustworthy run, vanished tests would look hidden.
  const problem = runProblem(weakened);
  if (problem) return { verdict: 'fail', reason: problem, runs: [weakened] };
  const summary = await ctx.weakening();
  const max = ctx.params.maxWeakenedTests;
  if (max !== undefined && weakenedCount(summary) > max) {
    return { verdict: 'fail', reason: `${describeWeakening(summary)}: more than the ${max} allowed (--max-weakened-tests)`, runs: [weakened] };
  }
  const hidden = failToPass.filter((id) => weakened.results[id] !== 'failed');
  if (hidden.length === 0) {
    return {
      verdict: 'fail',
      reason: `every one of the ${failToPass.length} failing test(s) still fails once test_weaken.diff is applied; ${describeWeakening(summary)}`,
      runs: [weakened],
    };
  }
  const gone = hidden.filter((id) => weakened.results[id] === undefined).length;
  return {
    verdict: 'pass',
    reason: `the weakening hides ${hidden.length} of ${failToPass.length} failure(s) (${gone} removed, ${hidden.length - gone} loosened): ${list(hidden)}; ${describeWeakening(summary)}`,
    runs: [weakened],
  };
}
