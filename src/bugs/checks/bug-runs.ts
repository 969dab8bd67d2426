/** `bug-validity` and `test-weakening`: the tests on the buggy state, with and without the weakening. */
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import { brokenTests } from '../test-results.js';

function list(ids: string[], max = 5): string {
  return `${ids.slice(0, max).join(', ')}${ids.length > max ? `, … (${ids.length} in all)` : ''}`;
}

export async function bugValidityCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const original = await ctx.originalRun();
  const buggy = await ctx.buggyRun();
  if (buggy.parser.error && !buggy.timedOut) {
    return { verdict: 'fail', reason: `the parser failed on the buggy run: ${buggy.parser.error}`, runs: [buggy] };
  }
  const broken = brokenTests(original.results, buggy.results);
  const need = ctx.params.minFailingTests;
  if (broken.length < need) {
    return { verdict: 'fail', reason: `${broken.length} passing test(s) fail with the bug; at least ${need} required`, runs: [buggy] };
  }
  const how = buggy.timedOut ? ' (the buggy run timed out; missing tests count as failed)' : '';
  return { verdict: 'pass', reason: `${broken.length} test(s) break: ${list(broken)}${how}`, runs: [buggy] };
}

export async function testWeakeningCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const { failToPass } = await ctx.testSpec();
  const weakened = await ctx.weakenedRun();
  if (ctx.artifact.weakenChanges.length === 0) {
    return { verdict: 'fail', reason: 'test_weaken.diff is empty: nothing hides the bug', runs: [weakened] };
  }
  if (weakened.timedOut || weakened.parser.error) {
    // Without a readable run, vanished tests would look hidden.
    const why = weakened.timedOut ? `timed out after ${ctx.params.testTimeoutSec} s` : weakened.parser.error;
    return { verdict: 'fail', reason: `the run with the weakened tests gave no results: ${why}`, runs: [weakened] };
  }
  const hidden = failToPass.filter((id) => weakened.results[id] !== 'failed');
  if (hidden.length === 0) {
    return {
      verdict: 'fail',
      reason: `every one of the ${failToPass.length} failing test(s) still fails once test_weaken.diff is applied`,
      runs: [weakened],
    };
  }
  const gone = hidden.filter((id) => weakened.results[id] === undefined).length;
  return {
    verdict: 'pass',
    reason: `the weakening hides ${hidden.length} of ${failToPass.length} failure(s) (${gone} removed, ${hidden.length - gone} loosened): ${list(hidden)}`,
    runs: [weakened],
  };
}
