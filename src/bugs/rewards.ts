/**
 * The self-play rewards (Self-play SWE-RL, equations 1 and 2). The injector is
 * paid for bugs that pass the checks and that the solver fixes sometimes but
 * not always; the solver is paid for each fix.
 */

export const DEFAULT_ALPHA = 0.8;

/** s = solved / attempts; 0 when nothing was attempted. */
export function solveRate(solved: number, attempts: number): number {
  return attempts > 0 ? solved / attempts : 0;
}

/**
 * Equation (1): −1 when the checks fail; −α when the solve rate is 0 or 1
 * (too hard or too easy); 1 − (1 + α)·s in between.
 */
export function injectReward(checksPassed: boolean, s: number, alpha: number = DEFAULT_ALPHA): number {
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  if (!(s >= 0 && s <= 1)) throw new RangeError(`the solve rate must be between 0 and 1, got ${s}`);
  if (!checksPassed) return -1;
  if (s === 0 || s === 1) return -alpha;
  // Rounded to a millionth, so 1 − 1.8 × 3/8 reads 0.325 and not 0.32499999999999996.
  return Math.round((1 - (1 + alpha) * s) * 1e6) / 1e6;
}

/** Equation (2): +1 for a solved attempt, −1 otherwise. */
export function solverReward(solved: boolean): 1 | -1 {
  return solved ? 1 : -1;
}
