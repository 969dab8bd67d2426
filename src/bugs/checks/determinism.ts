/**
 * `determinism`: each state gives the same results every time it runs (the
 * "fail-randomly" bug of Self-play SWE-RL appendix A.2), judged on every run
 * the checks make of it (check-evidence.ts): the original state in the
 * original run and the gold patch's run, the buggy state in its first run and
 * the reruns the evidence asked for, the weakened run for the failing tests it
 * leaves alone, a Go bug's reverts for the tests whose packages do not import
 * the reverted one, and the reverts together (each must fix a failing test). A test whose selection moves, or a failing test of the bug
 * that flips, fails the check; a passing test that flips is flaky: named with
 * its flips and dropped from PASS_TO_PASS, and the bug stands on the rest.
 */
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import type { FlakyTest } from '../evidence.js';
import { passedTests } from '../test-results.js';

function shown(items: string[], max = 5): string {
  return `${items.slice(0, max).join('; ')}${items.length > max ? `; … (${items.length} in all)` : ''}`;
}

export function describeFlaky(flaky: FlakyTest[], max = 5): string {
  return shown(flaky.map((f) => `${f.id} (${f.flips} flip${f.flips === 1 ? '' : 's'}: ${f.seen})`), max);
}

/** The reverts that count as one run against a coin flip (evidence.ts), as the check says it. */
function revertNote(reverts: string[]): string {
  if (reverts.length === 0) return '';
  return `, and each of ${reverts.map((l) => `"${l}"`).join(', ')} fixes a failing test, which a coin that survives one of those reverts does half the time`;
}

export async function determinismCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const evidence = await ctx.evidence();
  const runs = evidence.reruns;
  if (evidence.problem) return { verdict: 'skipped', reason: `cannot judge: ${evidence.problem}`, runs };
  if (evidence.moving.length > 0) {
    return { verdict: 'fail', reason: `the test script picks different tests from run to run of one state (${evidence.moving.length} test(s)): ${shown(evidence.moving)}`, runs };
  }
  if (evidence.rerunProblem) return { verdict: 'fail', reason: evidence.rerunProblem, runs };
  if (evidence.flippingFailures.length > 0) {
    return {
      verdict: 'fail',
      reason: `the bug's failing tests give different results from run to run (${evidence.flippingFailures.length} test(s)): ${describeFlaky(evidence.flippingFailures)}`,
      runs,
    };
  }
  const [original] = evidence.originalRuns;
  const flaky = new Set(evidence.flaky.map((f) => f.id));
  const steady = passedTests(original!.results).filter((id) => !flaky.has(id)).length;
  const need = ctx.params.minPassingTests;
  const flakyNote = evidence.flaky.length > 0 ? `; flaky, dropped from PASS_TO_PASS: ${describeFlaky(evidence.flaky)}` : '';
  if (evidence.flaky.length > 0 && steady < need) {
    return { verdict: 'fail', reason: `${steady} test(s) pass on the original code once the flaky ones are dropped; at least ${need} required${flakyNote}`, runs };
  }
  const originals = evidence.originalRuns.map((r) => `"${r.label}"`).join(' and ');
  const originalNote =
    evidence.originalRuns.length > 1 ? `the original state gives the same results in ${originals}` : `the original state was seen once (${originals})`;
  const bugNote =
    evidence.failToPass.length === 0
      ? 'the bug breaks no test, so no failure needs to repeat (see bug-validity)'
      : `the bug's failures show again in ${evidence.bugRuns.length} run(s) of the buggy code (${evidence.bugRuns.map((l) => `"${l}"`).join(', ')}), each failing test in at least ${evidence.leastSeen}${revertNote(evidence.restoringReverts)}: a bug whose failures come on a coin flip gets this far once in ${2 ** (evidence.bugRuns.length + (evidence.restoringReverts.length > 0 ? 1 : 0))}`;
  return { verdict: 'pass', reason: `${originalNote}; ${bugNote}${flakyNote}`, runs };
}
