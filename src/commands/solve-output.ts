/**
 * What `bugbench solve` prints, as text or JSON, from the run's result and
 * whether it was cancelled. A cancelled run judged only some of its attempts
 * (or none): it says so and gives no solve rate or reward, which would be
 * computed as if the attempts it never judged did not exist. Each attempt's
 * status is the record's, the same word in both outputs.
 */
import type { SolveResult } from '../pipeline/solve.js';

export type SolveEnding = 'finished' | 'cancelled';

/** The `--json` of `solve` (docs/reference/commands.md). */
export function solveJson(result: SolveResult, ending: SolveEnding) {
  const cancelled = ending === 'cancelled';
  return {
    bugId: result.bugId,
    runId: result.runId,
    status: ending,
    attempts: result.attempts.map((a) => ({ id: a.id, solver: a.solver, status: a.status, solved: a.solved, failing: a.failing, patchPath: a.patchPath, trajectory: a.trajectory, reward: a.reward })),
    solveRate: cancelled ? null : result.solveRate,
    injectReward: cancelled ? null : result.injectReward,
    alpha: result.alpha,
  };
}

/** The judged attempts: evaluated, or ended without a patch (equation 2 counts both). */
function judged(result: SolveResult) {
  return result.attempts.filter((a) => a.status === 'evaluated' || a.status === 'unsubmitted');
}

/** The human lines of `solve`: the verdict (or that the run was cancelled), then each attempt with its status and reward. */
export function solveLines(result: SolveResult, ending: SolveEnding): string[] {
  const solved = result.attempts.filter((a) => a.solved).length;
  const head =
    ending === 'cancelled'
      ? `${result.bugId}: solve cancelled — ${judged(result).length} of ${result.attempts.length} attempt(s) judged (${solved} solved); no solve rate or injection reward from a cancelled run, run \`bugbench solve ${result.bugId}\` again for one`
      : `${result.bugId}: solved ${solved} of ${result.attempts.length} — solve rate ${result.solveRate.toFixed(3)}, injection reward ${result.injectReward.toFixed(3)} (α ${result.alpha})`;
  const rows = result.attempts.map((a) => {
    const outcome = a.status === 'evaluated' ? (a.solved ? 'solved' : 'not solved') : '';
    const reward = a.reward === null ? '' : a.reward > 0 ? `+${a.reward}` : String(a.reward);
    return `  ${a.id}  ${a.solver.padEnd(16)} ${a.status.padEnd(11)} ${outcome.padEnd(10)} ${reward}`.trimEnd();
  });
  return [head, ...rows];
}
