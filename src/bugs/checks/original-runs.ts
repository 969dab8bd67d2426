/** `parser` and `test-script`: the artifact's tests on the original code. */
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import { disagreementReason } from '../parser-audit.js';
import { timeoutReason } from '../run-problems.js';
import { passedTests } from '../test-results.js';

export async function parserCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const run = await ctx.originalRun();
  if (run.timedOut) {
    return { verdict: 'skipped', reason: `cannot judge the parser: the original run ${timeoutReason(run)} (see test-script)`, runs: [run] };
  }
  if (run.parser.error) return { verdict: 'fail', reason: run.parser.error, runs: [run] };
  if (run.audit.status === 'disagrees') return { verdict: 'fail', reason: disagreementReason(run.label, run.audit), runs: [run] };
  const count = Object.keys(run.results).length;
  const audit =
    run.audit.status === 'agrees'
      ? `bugbench's own reading (${run.audit.reader}) agrees on every test${run.audit.unseen ? ` it names; ${run.audit.unseen}` : ''}`
      : run.audit.reader
        ? `PARSER UNVERIFIED: bugbench's reader of this runner (${run.audit.reader}) could not read the log, so the parser's map is taken on trust: ${run.audit.why}`
        : `parser unverified: ${run.audit.why}`;
  const where = run.parser.where ? ` (it ran ${run.parser.where})` : '';
  return { verdict: 'pass', reason: `the parser read ${count} test result(s) from the original run's log${where}; ${audit}`, runs: [run] };
}

export async function testScriptCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const run = await ctx.originalRun();
  if (run.timedOut) return { verdict: 'fail', reason: `${timeoutReason(run)} (test_script.sh was killed at the limit)`, runs: [run] };
  if (run.parser.error) return { verdict: 'fail', reason: `no test results: ${run.parser.error}`, runs: [run] };
  if (run.audit.status === 'disagrees') return { verdict: 'fail', reason: disagreementReason(run.label, run.audit), runs: [run] };
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
