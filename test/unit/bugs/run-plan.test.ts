import { describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../../src/bugs/artifact.js';
import { goldIsOriginal, planRuns, plannedRerun, rerunLabel, runsOfPlan } from '../../../src/bugs/run-plan.js';

const change = (path: string) => ({ oldPath: path, newPath: path, added: 1, removed: 1, binary: false });
const artifact = {
  testFiles: ['tests/test_a.py'],
  bugChanges: [change('pkg/a.py'), change('pkg/b.py')],
  predChanges: [],
} as unknown as BugArtifact;

describe('the runs of a bug', () => {
  it('runs the original once, the cheapest refusal first, and the reruns the evidence asks for last', () => {
    const plan = planRuns(artifact, artifact.bugChanges);
    expect(runsOfPlan(plan, artifact, 2).map((r) => r.label)).toEqual([
      'original',
      'buggy',
      'buggy + weakened tests',
      'revert pkg/a.py',
      'revert pkg/b.py',
      'gold patch',
      rerunLabel(2),
      'buggy (run 3)',
    ]);
    expect(plannedRerun(3)).toMatchObject({ state: 'buggy', check: 'determinism', layers: plan.buggy.layers });
  });

  it('skips the revert of a one-file bug, and names every state', () => {
    const one = { ...artifact, bugChanges: [change('pkg/a.py')] } as BugArtifact;
    expect(runsOfPlan(planRuns(one, one.bugChanges), one).map((r) => r.label)).toEqual(['original', 'buggy', 'buggy + weakened tests', 'gold patch']);
    const plan = planRuns(artifact, artifact.bugChanges);
    expect([plan.original, plan.buggy, plan.weakened, ...plan.reverts, plan.gold].map((r) => r.state)).toEqual([
      'original',
      'buggy',
      'weakened',
      'buggy with pkg/a.py reverted',
      'buggy with pkg/b.py reverted',
      'gold-patch',
    ]);
  });

  it('takes the gold state for the original exactly when the weakening changed only test files', () => {
    const weakening = (...paths: string[]) => ({ ...artifact, weakenChanges: paths.map(change) }) as BugArtifact;
    expect(goldIsOriginal(weakening('tests/test_a.py'))).toBe(true);
    // A file the weakening adds or edits outside the listed test files stays in the gold state: its run is not the original's.
    expect(goldIsOriginal(weakening('tests/test_a.py', 'tests/helpers.py'))).toBe(false);
    const higher = { ...weakening('tests/test_a.py'), predChanges: [change('pkg/c.py')] } as BugArtifact;
    expect(goldIsOriginal(higher)).toBe(true);
  });
});
