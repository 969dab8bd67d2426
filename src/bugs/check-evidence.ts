/**
 * Gathers the determinism evidence of one bug from the runs its checks make
 * anyway (the original, the gold patch's run of the same tree, the buggy state,
 * the weakened run), weighs it (evidence.ts), and reruns the buggy
 * state only as often as the evidence still falls short. The reruns no outcome
 * of the other runs can spare are asked for as soon as the first buggy run is
 * in, so they queue beside the others; the rest a few at a time (as many as
 * there are lanes), stopping at the first run that shows a failing test flip or
 * a test move.
 */
import type { BugArtifact } from './artifact.js';
import { perTestRuns, weighEvidence, type Evidence, type PartialObservation } from './evidence.js';
import { runProblem } from './run-problems.js';
import { goldIsOriginal } from './run-plan.js';
import { brokenTests } from './test-results.js';
import { touchedPaths, type FileChange } from './diff.js';
import { revertCovers, type GoImports } from './revert-coverage.js';
import { mentionedInDiff, type WeakeningScope, type WeakeningSummary } from './weakening.js';
import type { RunRecord } from './test-run.js';

/** What the evidence reads of a bug's check (its CheckContext), named here so the context can import this file. */
export interface EvidenceSource {
  readonly artifact: BugArtifact;
  readonly setup: { parallelism: number };
  readonly buggyRunCount: number;
  readonly revertsRun: boolean;
  originalRun(): Promise<RunRecord>;
  buggyRun(): Promise<RunRecord>;
  buggyRerun(n: number): Promise<RunRecord>;
  weakenedRun(): Promise<RunRecord>;
  goldRun(): Promise<RunRecord>;
  codeChanges(): FileChange[];
  revertRun(change: FileChange): Promise<RunRecord>;
  goImports(): Promise<GoImports | undefined>;
  weakeningScope(): Promise<WeakeningScope>;
  weakening(): Promise<WeakeningSummary>;
}

export interface GatheredEvidence extends Evidence {
  /** Why nothing could be weighed: the original or the first buggy run has no usable map (other checks say more). */
  problem?: string;
  /** A rerun without a usable map: the buggy state does not repeat. */
  rerunProblem?: string;
  /** The reruns of the buggy state the evidence asked for. */
  reruns: RunRecord[];
  /** The runs of each state weighed whole (the original state's, then the buggy state's). */
  originalRuns: RunRecord[];
  /** Runs of the buggy code weighed only where they agree, by label. */
  partialRuns: string[];
}

const NOTHING: Evidence = { failToPass: [], passToPass: [], flaky: [], flippingFailures: [], moving: [], bugRuns: [], restoringReverts: [], leastSeen: 0, deficit: 0 };

function settled(evidence: Evidence): boolean {
  return evidence.deficit === 0 || evidence.flippingFailures.length > 0 || evidence.moving.length > 0;
}

/**
 * The failing tests the weakened run observes as the buggy state has them: those
 * the weakening leaves alone. In test modules bugbench cannot read (Go, Rust, JS,
 * Java), those its text never names; none when it changes infrastructure every
 * test may depend on. A covered test that passes there is a flip (evidence.ts):
 * one the weakening loosened through a helper bugbench did not see refuses the
 * bug rather than letting a coin flip count only its heads.
 */
async function weakenedCovers(ctx: EvidenceSource, scope: WeakeningScope): Promise<((id: string) => boolean) | undefined> {
  if (!scope.everything) return (id) => !scope.touched(id) && !scope.removed(id);
  const summary = await ctx.weakening();
  if (summary.infrastructure.length > 0 || summary.method !== 'syntax') return undefined;
  return (id) => !mentionedInDiff(id, ctx.artifact.testWeaken);
}

export async function gatherEvidence(ctx: EvidenceSource): Promise<GatheredEvidence> {
  const original = await ctx.originalRun();
  const empty = { ...NOTHING, reruns: [], originalRuns: [original], partialRuns: [] };
  const originalProblem = runProblem(original);
  if (originalProblem) return { ...empty, problem: `the original run gave no usable test map (see parser and test-script)` };
  const buggy = await ctx.buggyRun();
  const buggyProblem = runProblem(buggy);
  if (buggyProblem) return { ...empty, problem: `the buggy state cannot be judged: ${buggyProblem} (see bug-validity)` };

  // At most the weakened run (when it covers a failing test: decided before it runs) and the reverts (two or more, counting as
  // one) can stand for runs of the buggy code besides the first: the rest must be reruns, asked for now so that none waits for
  // the others' results (a weakening that deletes every failing test, as Go's and TypeScript's often do, covers none).
  const bugRuns = ctx.buggyRunCount;
  const reverting = ctx.revertsRun && ctx.codeChanges().length >= 2;
  const failing = brokenTests(original.results, buggy.results);
  const scope = failing.length > 0 && ctx.artifact.weakenChanges.length > 0 ? await ctx.weakeningScope() : undefined;
  const covers = scope ? await weakenedCovers(ctx, scope) : undefined;
  // Each revert of a Go bug covers the failing tests whose packages do not import the reverted one (revert-coverage.ts).
  const graph = reverting && failing.length > 0 ? await ctx.goImports() : undefined;
  // By revert, in the order of codeChanges(): what it covers when that is some failing test.
  const revertCovering = ctx.codeChanges().map((change) => {
    const seen = graph ? revertCovers(graph, touchedPaths([change])) : undefined;
    return seen && failing.some((id) => seen(id)) ? seen : undefined;
  });
  const others = (covers && failing.some((id) => covers(id)) ? 1 : 0) + (reverting ? 1 : 0) + revertCovering.filter(Boolean).length;
  const early = failing.length > 0 ? Array.from({ length: Math.max(0, bugRuns - 1 - others) }, (_, i) => ctx.buggyRerun(i + 2)) : [];
  // The reverts are asked for here too, so they queue beside the others for inverse-mutation.
  const [gold, weakened, revertRuns] = await Promise.all([
    ctx.goldRun(),
    ctx.weakenedRun(),
    ctx.revertsRun ? Promise.all(ctx.codeChanges().map((change) => ctx.revertRun(change))) : Promise.resolve([]),
  ]);
  // When the gold patch's tree is the original's (the bug's code paths and the test files put back), its run is a second look
  // at that state. When it is not (the weakening changed a file besides the tests), a test it fails is the gold patch's
  // failure, for gold-patch to judge, not a flip of the original's.
  const originals = [original, ...(goldIsOriginal(ctx.artifact) && !runProblem(gold) ? [gold] : [])];
  const partial: PartialObservation[] = [];
  if (!runProblem(weakened)) {
    const seen = covers ?? (await weakenedCovers(ctx, await ctx.weakeningScope()));
    if (seen) partial.push({ ...weakened, covers: seen });
  }
  const need = { bugRuns, perTest: perTestRuns(bugRuns) };
  const reruns: RunRecord[] = [];
  const reverts = reverting && !revertRuns.some((run) => runProblem(run)) ? revertRuns : [];
  reverts.forEach((run, i) => {
    const seen = revertCovering[i];
    if (seen) partial.push({ ...run, covers: seen });
  });
  const weigh = () => weighEvidence({ original: originals, buggy: [buggy, ...reruns], partial, reverts, need });
  const done = (evidence: Evidence, rerunProblem?: string): GatheredEvidence => ({
    ...evidence,
    rerunProblem,
    reruns,
    originalRuns: originals,
    partialRuns: partial.map((p) => p.label),
  });

  let evidence = weigh();
  const batch = Math.max(1, ctx.setup.parallelism);
  const more = () => (settled(evidence) ? [] : Array.from({ length: Math.min(batch, evidence.deficit) }, (_, i) => ctx.buggyRerun(reruns.length + 2 + i)));
  let asked = early.length > 0 ? early : more();
  while (asked.length > 0) {
    for (const pending of asked) {
      const rerun = await pending;
      const problem = runProblem(rerun);
      if (problem) {
        reruns.push(rerun);
        return done(evidence, `the buggy state gave a test map on its first run, but ${problem}`);
      }
      reruns.push(rerun);
      evidence = weigh();
      if (evidence.flippingFailures.length > 0 || evidence.moving.length > 0) return done(evidence);
    }
    asked = more();
  }
  return done(evidence);
}
