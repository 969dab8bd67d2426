/**
 * What the test runs of one bug say about whether its results repeat, pooled
 * over every run that observes a state rather than only the reruns made for
 * it. Pure: the determinism check gathers the runs, this weighs them.
 *
 * Two states are observed whole: the original (the original run, and the gold
 * patch's run, whose tree is the original's) and the buggy state (the first
 * buggy run and its reruns). A test that passes in one run of such a state and
 * fails in another is flaky; one that is there in one run and missing from
 * another means the script picks its tests differently from run to run, which
 * no dropping can cure.
 *
 * Other runs of the buggy code may observe some of the failing tests: those
 * they cover, a set decided before they ran — the weakened run, the tests the
 * weakening leaves alone; a revert run of a Go bug, the tests whose packages
 * do not import the reverted one (revert-coverage.ts). A covered failing test
 * counts there as in a rerun, a pass as a flip. Coverage that depended on the
 * result (a revert run's "tests that still fail there") would count only
 * failures, and a coin flip would then need fewer reruns to get through than
 * the bound below says, so a revert run covers nothing without such a set.
 *
 * The reverts of a bug of two or more code files say something else: reverting
 * each file alone must fix some failing test (inverse mutation asks it anyway).
 * A coin-flip bug whose coin survives at least one of those reverts (the coin
 * lives in fewer than all of its files) fixes a test there only on a coin
 * flip, so reverts that each fix one count together as one more run against
 * the coin, whatever tests they cover.
 *
 * The evidence is enough when `bugRuns` runs of the buggy code show the bug's
 * failures again (every failing test they observe fails, at least one observed),
 * the reverts counting as one when they each fix a test, and each failing test
 * was seen failing in `perTest` of them. A bug whose failures come on a coin
 * flip then gets through with probability at most 2^-bugRuns; a single failing
 * test that flips on its own, at most 2^-perTest.
 */
import { brokenTests, keptTests, type NamedMap, type TestMap } from './test-results.js';

/** A test seen both passing and failing in runs of one state. */
export interface FlakyTest {
  id: string;
  /** How many times its result changed from one run of a state to the next. */
  flips: number;
  /** The runs it was seen in, with its result in each: `passed in "original", failed in "gold patch"`. */
  seen: string;
}

/**
 * A run of the buggy code that observes only the failing tests it `covers`, a
 * set decided before the run (the weakened run: those the weakening leaves
 * alone), never from its results.
 */
export interface PartialObservation extends NamedMap {
  covers: (id: string) => boolean;
}

export interface EvidenceInput {
  /** Runs of the original state; the first defines which tests pass there. */
  original: NamedMap[];
  /** Runs of the buggy state with the original tests; the first defines FAIL_TO_PASS. */
  buggy: NamedMap[];
  /** The weakened run, observing the failing tests it leaves alone. */
  partial: PartialObservation[];
  /** The runs with one code file reverted each (every code file of the bug, none when it changes one). */
  reverts: NamedMap[];
  need: { bugRuns: number; perTest: number };
}

export interface Evidence {
  failToPass: string[];
  /** PASS_TO_PASS without the flaky tests. */
  passToPass: string[];
  flaky: FlakyTest[];
  /** Failing tests of the bug that flip: the bug cannot stand on them. */
  flippingFailures: FlakyTest[];
  /** Tests there in some runs of a state and missing from others, each named with where: the script's selection moves. */
  moving: string[];
  /** The runs of the buggy code that show the bug's failures again. */
  bugRuns: string[];
  /** The reverts, when there are two or more and each fixes a failing test: one more run against a coin flip. */
  restoringReverts: string[];
  /** The fewest runs of the buggy code any failing test was seen failing in. */
  leastSeen: number;
  /** More reruns of the buggy state the evidence needs (0 when it is enough). */
  deficit: number;
}

const isPass = (map: TestMap, id: string) => map[id] === 'passed';

/** Flips and moves of each test over the runs of one state. */
function weighState(runs: NamedMap[], flaky: Map<string, { flips: number; seen: string[] }>, moving: string[]): void {
  if (runs.length < 2) return;
  const ids = [...new Set(runs.flatMap((r) => Object.keys(r.results)))].sort();
  for (const id of ids) {
    const present = runs.filter((r) => r.results[id] !== undefined);
    if (present.length < runs.length) {
      const where = runs.map((r) => `${r.results[id] ?? 'missing'} in "${r.label}"`).join(', ');
      moving.push(`${id}: ${where}`);
      continue;
    }
    let flips = 0;
    for (let i = 1; i < present.length; i++) if (present[i]!.results[id] !== present[i - 1]!.results[id]) flips++;
    if (flips === 0) continue;
    const entry = flaky.get(id) ?? { flips: 0, seen: [] };
    entry.flips += flips;
    entry.seen.push(...present.map((r) => `${r.results[id]} in "${r.label}"`));
    flaky.set(id, entry);
  }
}

export function weighEvidence(input: EvidenceInput): Evidence {
  const [original, buggy] = [input.original[0], input.buggy[0]];
  if (!original || !buggy) throw new Error('weighEvidence needs an original and a buggy run');
  const flakyMap = new Map<string, { flips: number; seen: string[] }>();
  const moving: string[] = [];
  weighState(input.original, flakyMap, moving);
  weighState(input.buggy, flakyMap, moving);
  const failToPass = brokenTests(original.results, buggy.results);
  // A partial run covers its tests whatever they give there, so one passing is a flip, as it would be in a rerun: counting only its failures would let a coin flip through more often than the bound says.
  for (const run of input.partial) {
    for (const id of failToPass.filter((t) => run.covers(t) && isPass(run.results, t))) {
      const entry = flakyMap.get(id) ?? { flips: 0, seen: [`failed in "${buggy.label}"`] };
      entry.flips += 1;
      entry.seen.push(`passed in "${run.label}"`);
      flakyMap.set(id, entry);
    }
  }
  const flaky = [...flakyMap.entries()].map(([id, e]) => ({ id, flips: e.flips, seen: e.seen.join(', ') })).sort((a, b) => a.id.localeCompare(b.id));
  const isFlaky = new Set(flaky.map((f) => f.id));

  const passToPass = keptTests(original.results, buggy.results).filter((id) => !isFlaky.has(id));
  const flippingFailures = flaky.filter((f) => failToPass.includes(f.id));

  // Every run of the buggy code that observes some failing test and sees each one it observes fail.
  const seen = new Map(failToPass.map((id) => [id, 0]));
  const bugRuns: string[] = [];
  const observe = (run: NamedMap, observed: string[]) => {
    const failing = observed.filter((id) => !isPass(run.results, id));
    for (const id of failing) seen.set(id, seen.get(id)! + 1);
    if (failing.length > 0 && failing.length === observed.length) bugRuns.push(run.label);
  };
  // A rerun of the buggy state observes every failing test (one that vanished counts as failing, as in the first run); a partial run, the covered ones it ran.
  for (const run of input.buggy) observe(run, failToPass);
  for (const run of input.partial) observe(run, failToPass.filter((id) => run.covers(id) && run.results[id] !== undefined));
  const leastSeen = failToPass.length === 0 ? 0 : Math.min(...seen.values());
  const restores = input.reverts.length >= 2 && input.reverts.every((run) => failToPass.some((id) => isPass(run.results, id)));
  const restoringReverts = restores ? input.reverts.map((run) => run.label) : [];
  // Each rerun of the buggy state adds one to both counts.
  const shown = bugRuns.length + (restores ? 1 : 0);
  const deficit = failToPass.length === 0 ? 0 : Math.max(0, input.need.bugRuns - shown, input.need.perTest - leastSeen);
  return { failToPass, passToPass, flaky, flippingFailures, moving, bugRuns, restoringReverts, leastSeen, deficit };
}

/** How many runs each failing test must be seen failing in, for `bugRuns` runs of the bug: a majority of them. */
export function perTestRuns(bugRuns: number): number {
  return Math.min(bugRuns, Math.floor(bugRuns / 2) + 1);
}
