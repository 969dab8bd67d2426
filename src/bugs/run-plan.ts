/**
 * Every test run the checks make for one bug, named, with the state it runs
 * in: the original code (shared by every bug of the same image, script and
 * test files), the buggy state, the weakened tests, one revert per changed
 * file, the gold patch (whose tree is the original's: its run is the
 * original state's second observation), and as many reruns of the buggy state
 * as the determinism evidence still needs once those are in (evidence.ts).
 * Pure: the context runs these, the check bench times them.
 */
import type { BugArtifact } from './artifact.js';
import type { CheckName } from './check-types.js';
import { fileOf, touchedPaths, type FileChange } from './diff.js';
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
  /** The first run of the buggy state: FAIL_TO_PASS comes from it. */
  buggy: PlannedRun;
  weakened: PlannedRun;
  reverts: PlannedRun[];
  gold: PlannedRun;
}

export const BUGGY_LAYERS: StateLayers = { bug: true, restoreTests: true };

export function rerunLabel(n: number): string {
  return `buggy (run ${n})`;
}

/** The n-th run of the buggy state (n ≥ 2): a rerun the determinism evidence asked for. */
export function plannedRerun(n: number): PlannedRun {
  return { label: rerunLabel(n), state: 'buggy', check: 'determinism', layers: BUGGY_LAYERS };
}

/** A second run of the weakened state: made only to tell a flaky test from one the weakening breaks. */
export const WEAKENED_RERUN: PlannedRun = { label: 'buggy + weakened tests (run 2)', state: 'weakened', check: 'test-weakening', layers: { bug: true, weaken: true } };

export function planRuns(artifact: BugArtifact, codeChanges: FileChange[]): RunPlan {
  return {
    original: { label: 'original', state: 'original', check: 'parser', layers: {} },
    buggy: { label: 'buggy', state: 'buggy', check: 'bug-validity', layers: BUGGY_LAYERS },
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

/**
 * Whether the gold patch's state is the original code exactly: it puts back
 * every code file the bug (and a parent) changed and the test files, so it is
 * when the weakening changed nothing else. Its run is then a second run of the
 * original state, shared like the first by every bug of the image, script and
 * test files.
 */
export function goldIsOriginal(artifact: BugArtifact): boolean {
  const restored = new Set([...goldPaths(artifact), ...artifact.testFiles]);
  return touchedPaths([...artifact.weakenChanges, ...artifact.bugChanges, ...artifact.predChanges]).every((path) => restored.has(path));
}

/** Whether inverse mutation runs the reverts (a one-file bug without a parent patch needs none: its revert is the original). */
export function revertsRun(plan: RunPlan, artifact: BugArtifact): boolean {
  return plan.reverts.length > 1 || artifact.predChanges.length > 0;
}

/**
 * The runs a full check makes before the evidence asks for reruns, cheapest
 * refusal first: the original and the buggy state settle most refusals, the
 * weakened run and the reverts the rest, the gold patch last; `reruns` more of
 * the buggy state follow.
 */
export function runsOfPlan(plan: RunPlan, artifact: BugArtifact, reruns = 0): PlannedRun[] {
  const reverts = revertsRun(plan, artifact) ? plan.reverts : [];
  const more = Array.from({ length: reruns }, (_, i) => plannedRerun(i + 2));
  return [plan.original, plan.buggy, plan.weakened, ...reverts, plan.gold, ...more];
}
