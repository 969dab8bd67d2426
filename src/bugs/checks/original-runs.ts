/** `parser`, `test-script` and `determinism`: the artifact's tests on the original code. */
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import { mapDifferences, passedTests } from '../test-results.js';

export async function parserCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const run = await ctx.originalRun();
  if (run.timedOut) {
    return {
      verdict: 'skipped',
      reason: `cannot judge the parser: the test script did not finish within ${ctx.params.testTimeoutSec} s (see test-script)`,
      runs: [run],
    };
  }
  if (run.parser.error) return { verdict: 'fail', reason: run.parser.error, runs: [run] };
  const count = Object.keys(run.results).length;
  return { verdict: 'pass', reason: `the parser read ${count} test result(s) from the original run's log`, runs: [run] };
}

export async function testScriptCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const run = await ctx.originalRun();
  const limit = ctx.params.testTimeoutSec;
  if (run.timedOut) {
    return { verdict: 'fail', reason: `test_script.sh did not finish within ${limit} s on the original code and was killed`, runs: [run] };
  }
  if (run.parser.error) return { verdict: 'fail', reason: `no test results: ${run.parser.error}`, runs: [run] };
  const passed = passedTests(run.results).length;
  const need = ctx.params.minPassingTests;
  if (passed < need) {
    return { verdict: 'fail', reason: `${passed} test(s) pass on the original code; at least ${need} required`, runs: [run] };
  }
  return {
    verdict: 'pass',
    reason: `${passed} of ${Object.keys(run.results).length} tests pass on the original code in ${(run.durationMs / 1000).toFixed(1)} s`,
    runs: [run],
  };
}

export async function determinismCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const first = await ctx.originalRun();
  const second = await ctx.secondOriginalRun();
  if (second.timedOut || second.parser.error) {
    return { verdict: 'fail', reason: `the second run on the original code gave no results (${second.parser.error ?? 'timed out'})`, runs: [second] };
  }
  const differences = mapDifferences(first.results, second.results);
  if (differences.length > 0) {
    const shown = differences.slice(0, 5).join('; ');
    return {
      verdict: 'fail',
      reason: `a second run on the original code gave a different map (${differences.length} difference(s): ${shown}${differences.length > 5 ? '; …' : ''})`,
      runs: [second],
    };
  }
  return { verdict: 'pass', reason: `a second run gave the same ${Object.keys(second.results).length} results`, runs: [second] };
}
