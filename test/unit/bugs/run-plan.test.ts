import { describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../../src/bugs/artifact.js';
import { planRuns, rerunLabel, runsOfPlan } from '../../../src/bugs/run-plan.js';

const change = (path: string) => ({ oldPath: path, newPath: path, added: 1, removed: 1, binary: false });
const artifact = {
  testFiles: ['tests/test_a.py'],
  bugChanges: [change('pkg/a.py'), change('pkg/b.py')],
  predChanges: [],
} as unknown as BugArtifact;

describe('the runs of a bug', () => {
  it('runs the buggy state as often as asked', () => {
    const plan = planRuns(artifact, artifact.bugChanges, 5);
    expect(plan.reruns.map((r) => [r.label, r.state])).toEqual([
      [rerunLabel(2), 'buggy'],
      ['buggy (run 3)', 'buggy'],
      ['buggy (run 4)', 'buggy'],
      ['buggy (run 5)', 'buggy'],
    ]);
    expect(plan.reruns.every((r) => r.layers === plan.buggy.layers)).toBe(true);
    expect(runsOfPlan(plan, artifact).map((r) => r.label)).toEqual([
      'original',
      'original (second run)',
      'buggy',
      'buggy (run 2)',
      'buggy (run 3)',
      'buggy (run 4)',
      'buggy (run 5)',
      'buggy + weakened tests',
      'revert pkg/a.py',
      'revert pkg/b.py',
      'gold patch',
    ]);
  });

  it('makes no rerun for one buggy run, and names every state', () => {
    const plan = planRuns(artifact, artifact.bugChanges, 1);
    expect(plan.reruns).toEqual([]);
    expect([plan.original, plan.second, plan.buggy, plan.weakened, ...plan.reverts, plan.gold].map((r) => r.state)).toEqual([
      'original',
      'original',
      'buggy',
      'weakened',
      'buggy with pkg/a.py reverted',
      'buggy with pkg/b.py reverted',
      'gold-patch',
    ]);
  });
});
