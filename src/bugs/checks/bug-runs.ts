/** `bug-validity` and `test-weakening`: the tests on the buggy state, with and without the weakening. */
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import { runProblem } from '../run-problems.js';
import { brokenTests, passedTests } from '../test-results.js';
import { readLogTail, stoppedOnFailure, unexplainedVanished } from '../vanished.js';
import { describeWeakening, weakenedCount } from '../weakening.js';

function list(ids: string[], max = 5): string {
  return `${ids.slice(0, max).join(', ')}${ids.length > max ? `, … (${ids.length} in all)` : ''}`;
}

/** " (N of them missing from the run, counted as failing: …)" when tests the original run showed are gone. */
function vanishedNote(vanished: string[], state: string): string {
  return vanished.length > 0 ? ` (${vanished.length} of them missing from the ${state} run, counted as failing: ${list(vanished, 3)})` : '';
}

export async function bugValidityCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const original = await ctx.originalRun();
  const buggy = await ctx.buggyRun();
  const problem = runProblem(buggy) ?? runProblem(original);
  // A run without a trustworthy map says nothing about which tests break.
  if (problem) return { verdict: 'fail', reason: problem, runs: [buggy] };
  // A test the original run shows and the buggy run does not is failing there: a missing test never counts as passing.
  const broken = brokenTests(original.results, buggy.results);
  const vanished = broken.filter((id) => buggy.results[id] === undefined);
  // A test that vanished with no reason the log shows was left out by the script, not broken by the bug.
  const [buggyLog, originalLog] = [readLogTail(buggy.logPath), readLogTail(original.logPath)];
  const selected = unexplainedVanished(original.results, buggy.results, vanished, buggyLog, originalLog);
  if (selected.length > 0) {
    const why = stoppedOnFailure(buggyLog, originalLog)
      ? 'the test script stops at its first failures (pytest -x or --maxfail), so they never ran: a test the bug never made fail cannot stand in FAIL_TO_PASS; run the whole selection'
      : 'nothing new in its log says why (no loading error or crash, no line naming their file): the test script chooses its tests by the state of the code';
    return {
      verdict: 'fail',
      reason: `${selected.length} test(s) vanish from the buggy run and ${why}: ${list(selected)}`,
      runs: [buggy],
    };
  }
  const need = ctx.params.minFailingTests;
  if (broken.length < need) {
    return { verdict: 'fail', reason: `${broken.length} passing test(s) fail with the bug${vanishedNote(vanished, 'buggy')}; at least ${need} required`, runs: [buggy] };
  }
  return { verdict: 'pass', reason: `${broken.length} test(s) break${vanishedNote(vanished, 'buggy')}: ${list(broken)}`, runs: [buggy] };
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
  const scope = await ctx.weakeningScope();
  // A test gone from the weakened run is hidden only if the weakening removed it (directly, through
  // inheritance, or by name); otherwise the test script left it out, and a missing test is a failing one.
  const missing = (id: string) => weakened.results[id] === undefined;
  const hidden = failToPass.filter((id) => weakened.results[id] === 'passed' || (missing(id) && scope.removed(id)));
  const leftOut = failToPass.filter((id) => missing(id) && !scope.removed(id));
  const leftOutNote = leftOut.length > 0 ? `; ${list(leftOut, 3)} ${leftOut.length === 1 ? 'is' : 'are'} missing from the weakened run although the weakening does not remove ${leftOut.length === 1 ? 'it' : 'them'} (the test script leaves ${leftOut.length === 1 ? 'it' : 'them'} out), which counts as failing` : '';
  if (hidden.length === 0) {
    return {
      verdict: 'fail',
      reason: `every one of the ${failToPass.length} failing test(s) still fails once test_weaken.diff is applied${leftOutNote}; ${describeWeakening(summary)}`,
      runs: [weakened],
    };
  }
  // The weakening may hide failures, but must not break what it leaves alone: a test that passes in the
  // buggy state and fails (or is left out) once weakened was broken by the weakening itself.
  const runs = [weakened];
  let flakyNote = '';
  if (!scope.everything) {
    const buggy = await ctx.buggyRun();
    // A flaky test failing in the weakened run says nothing of the weakening (determinism names it).
    const flaky = new Set((await ctx.evidence()).flaky.map((f) => f.id));
    const suspects = Object.keys(buggy.results)
      .filter((id) => buggy.results[id] === 'passed' && !scope.touched(id) && !scope.removed(id) && weakened.results[id] !== 'passed' && !flaky.has(id))
      .sort();
    if (suspects.length > 0) {
      // A second look at the weakened state tells a flaky test (it passes there now) from one the weakening breaks.
      const again = await ctx.weakenedRerun();
      runs.push(again);
      const rerun = runProblem(again) ? undefined : again;
      const flipped = rerun ? suspects.filter((id) => rerun.results[id] === 'passed') : [];
      const broken = suspects.filter((id) => !flipped.includes(id));
      if (broken.length > 0) {
        const shown = broken.slice(0, 5).map((id) => `${id}: passed in "buggy", ${weakened.results[id] ?? 'missing'} in "${weakened.label}"${rerun ? ` and in "${again.label}"` : ''}`);
        const secondLook = rerun ? '' : ` (its second run could not tell a flaky test: ${runProblem(again)})`;
        return { verdict: 'fail', reason: `the weakening breaks ${broken.length} test(s) it does not touch: ${shown.join('; ')}${broken.length > 5 ? '; …' : ''}${secondLook}`, runs };
      }
      const found = flipped.map((id) => ({ id, flips: 1, seen: `passed in "buggy", ${weakened.results[id] ?? 'missing'} in "${weakened.label}", passed in "${again.label}"` }));
      ctx.laterFlaky.push(...found);
      flakyNote = `; flaky, dropped from PASS_TO_PASS: ${found.map((f) => `${f.id} (1 flip: ${f.seen})`).join('; ')}`;
      // The same count as test-script's and determinism's: tests that pass on the original code, less every flaky one.
      const dropped = new Set([...flaky, ...flipped]);
      const steady = passedTests((await ctx.originalRun()).results).filter((id) => !dropped.has(id)).length;
      const need = ctx.params.minPassingTests;
      if (steady < need) return { verdict: 'fail', reason: `${steady} test(s) pass on the original code once the flaky ones are dropped; at least ${need} required${flakyNote}`, runs };
    }
  }
  const gone = hidden.filter(missing).length;
  return {
    verdict: 'pass',
    reason: `the weakening hides ${hidden.length} of ${failToPass.length} failure(s) (${gone} removed, ${hidden.length - gone} loosened): ${list(hidden)}${leftOutNote}; ${describeWeakening(summary)}${flakyNote}`,
    runs,
  };
}
