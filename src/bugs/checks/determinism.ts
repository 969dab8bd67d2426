/**
 * `determinism`: each state gives the same results every time it runs (the
 * "fail-randomly" bug of Self-play SWE-RL appendix A.2). The original code
 * runs twice; the buggy state runs `buggyRuns` times, and the weakened run
 * repeats it for every test the weakening does not touch. A test whose result
 * differs between runs of one state fails the check, named with both results.
 */
import { touchedPaths } from '../diff.js';
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import { runProblem } from '../run-problems.js';
import type { RunRecord } from '../test-run.js';
import { runDifferences } from '../test-results.js';
import { weakeningScope } from '../weakening.js';

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
  // The weakened run (usually in before the reruns) repeats the buggy state for the tests the weakening leaves alone.
  const weakened = await ctx.weakenedRun();
  let weakenedNote = '';
  if (!runProblem(weakened)) {
    const scope = weakeningScope(touchedPaths(ctx.artifact.weakenChanges), await ctx.weakeningAnalysis());
    if (!scope.everything) {
      const untouched = (id: string) => !scope.touched(id);
      const differences = runDifferences(head, weakened, untouched);
      if (differences.length > 0) {
        return {
          verdict: 'fail',
          reason: `tests the weakening does not touch give different results in two runs of the buggy state (${differences.length} test(s)): ${shown(differences)}`,
          runs: [second, weakened],
        };
      }
      const compared = Object.keys(head.results).filter(untouched).length;
      weakenedNote = `, and the weakened run agrees on the ${compared} tests the weakening leaves alone`;
    }
  }

  // Each rerun is judged as it comes in: the first difference settles it.
  const reruns: RunRecord[] = [];
  for (const next of await ctx.buggyReruns()) {
    const rerun = await next;
    reruns.push(rerun);
    const problem = runProblem(rerun);
    if (problem) return { verdict: 'fail', reason: `the buggy state gave a test map on its first run, but ${problem}`, runs: [second, ...reruns, weakened] };
    const differences = runDifferences(head, rerun);
    if (differences.length > 0) {
      return {
        verdict: 'fail',
        reason: `the buggy state gives different results from run to run (${differences.length} test(s)): ${shown(differences)}`,
        runs: [second, ...reruns, weakened],
      };
    }
  }
  const runs = reruns.length === 0 ? 'its one run' : `all ${reruns.length + 1} runs`;
  return {
    verdict: 'pass',
    reason: `${originalNote}; the buggy state gives the same ${Object.keys(head.results).length} results on ${runs}${weakenedNote}`,
    runs: [second, ...reruns, weakened],
  };
}
