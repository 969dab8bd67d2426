/**
 * `determinism`: each state gives the same results every time it runs (the
 * "fail-randomly" bug of Self-play SWE-RL appendix A.2). The original code
 * runs twice and the buggy state `buggyRuns` times. Only runs of one state
 * are compared: the weakened run is another state, and what the weakening
 * does to tests is test-weakening's to judge. A test whose result differs
 * between runs of one state fails the check, named with both results.
 */
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import { runProblem } from '../run-problems.js';
import type { RunRecord } from '../test-run.js';
import { runDifferences } from '../test-results.js';

function shown(differences: string[], max = 5): string {
  return `${differences.slice(0, max).join('; ')}${differences.length > max ? '; …' : ''}`;
}

export async function determinismCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const [first, second] = await Promise.all([ctx.originalRun(), ctx.secondOriginalRun()]);
  if (runProblem(first)) {
    return { verdict: 'skipped', reason: 'cannot judge: the original run gave no usable test map (see parser and test-script)', runs: [second] };
  }
  const secondProblem = runProblem(second);
  if (secondProblem) return { verdict: 'fail', reason: `the second run on the original code gave no usable test map: ${secondProblem}`, runs: [second] };
  const original = runDifferences(first, second);
  if (original.length > 0) {
    return { verdict: 'fail', reason: `the original code gives different results on a second run (${original.length} test(s)): ${shown(original)}`, runs: [second] };
  }
  const originalNote = `the original code gives the same ${Object.keys(first.results).length} results twice`;

  const head = await ctx.buggyRun();
  const headProblem = runProblem(head);
  if (headProblem) {
    return { verdict: 'skipped', reason: `${originalNote}; the buggy state cannot be judged: ${headProblem} (see bug-validity)`, runs: [second] };
  }
  // Each rerun is judged as it comes in: the first difference settles it.
  const reruns: RunRecord[] = [];
  for (const next of await ctx.buggyReruns()) {
    const rerun = await next;
    reruns.push(rerun);
    const problem = runProblem(rerun);
    if (problem) return { verdict: 'fail', reason: `the buggy state gave a test map on its first run, but ${problem}`, runs: [second, ...reruns] };
    const differences = runDifferences(head, rerun);
    if (differences.length > 0) {
      return {
        verdict: 'fail',
        reason: `the buggy state gives different results from run to run (${differences.length} test(s)): ${shown(differences)}`,
        runs: [second, ...reruns],
      };
    }
  }
  const runs = reruns.length === 0 ? 'its one run' : `all ${reruns.length + 1} runs`;
  return {
    verdict: 'pass',
    reason: `${originalNote}; the buggy state gives the same ${Object.keys(head.results).length} results on ${runs}`,
    runs: [second, ...reruns],
  };
}
