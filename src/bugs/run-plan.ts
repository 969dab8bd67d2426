/**
 * Every test run the checks make for one bug, named, with the state it runs
 * in: the original code twice, the buggy
 * state `buggyRuns` times (the reruns show whether it repeats), the weakened
 * tests, one revert per changed file, and the gold patch. Pure: the context
 * runs these, the check bench times them.
 */
import type { BugArtifact } from './artifact.js';
import type { CheckName } from './check-types.js';
import { fileOf, type FileChange } from './diff.js';
import { goldPaths, type StateLayers } from './repo-state.js';

export interface PlannedRun {
  label: string;
  /** The state's name in messages: "timed out after 90 s in the <state> state". */
  state: string;
  /** The check the run is first made for (its events carry this name). */
  check: CheckName;
  layers: StateLayers;
}

export interface RunPlan {
  original: PlannedRun;
  second: PlannedRun;
  /** The first run of the buggy state: FAIL_TO_PASS comes from it. */
  buggy: PlannedRun;
  /** The buggy state again, to show it gives the same results. */
  reruns: PlannedRun[];
  weakened: PlannedRun;
  reverts: PlannedRun[];
  gold: PlannedRun;
}

export const BUGGY_LAYERS: StateLayers = { bug: true, restoreTests: true };

export function rerunLabel(n: number): string {
  return `buggy (run ${n})`;
}

export function planRuns(artifact: BugArtifact, codeChanges: FileChange[], buggyRuns: number): RunPlan {
  return {
    original: { label: 'original', state: 'original', check: 'parser', layers: {} },
    second: { label: 'original (second run)', state: 'original', check: 'determinism', layers: {} },
    buggy: { label: 'buggy', state: 'buggy', check: 'bug-validity', layers: BUGGY_LAYERS },
    reruns: Array.from({ length: Math.max(0, buggyRuns - 1) }, (_, i) => ({
      label: rerunLabel(i + 2),
      state: 'buggy',
      check: 'determinism' as const,
      layers: BUGGY_LAYERS,
    })),
    weakened: { label: 'buggy + weakened tests', state: 'weakened', check: 'test-weakening', layers: { bug: true, weaken: true } },
    reverts: codeChanges.map((change, i) => ({
      label: `revert ${fileOf(change)}`,
      state: `buggy with ${fileOf(change)} reverted`,
      check: 'inverse-mutation' as const,
      layers: { ...BUGGY_LAYERS, revert: [change] },
    })),
    gold: {
      label: 'gold patch',
      state: 'gold-patch',
      check: 'gold-patch',
      layers: { bug: true, weaken: true, goldOf: goldPaths(artifact), restoreTests: true },
    },
  };
}

/** Every run of a plan that a full check makes (inverse mutation skips its reverts for a one-file bug without a parent patch). */
export function runsOfPlan(plan: RunPlan, artifact: BugArtifact): PlannedRun[] {
  const reverts = plan.reverts.length > 1 || artifact.predChanges.length > 0 ? plan.reverts : [];
  return [plan.original, plan.second, plan.buggy, ...plan.reruns, plan.weakened, ...reverts, plan.gold];
}
