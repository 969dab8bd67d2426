import { describe, expect, it } from 'vitest';
import { perTestRuns, weighEvidence } from '../../../src/bugs/evidence.js';
import type { TestMap } from '../../../src/bugs/test-results.js';

const run = (label: string, results: TestMap) => ({ label, results });
const need = { bugRuns: 5, perTest: perTestRuns(5) };
const original = run('original', { a: 'passed', b: 'passed', p: 'passed' });
const gold = run('gold patch', { a: 'passed', b: 'passed', p: 'passed' });
const buggy = (label: string, a: 'passed' | 'failed' = 'failed', p: 'passed' | 'failed' = 'passed') => run(label, { a, b: 'failed', p });

describe('weighing the determinism evidence', () => {
  it('counts the weakened run for the tests it covers, and asks for the reruns still missing', () => {
    const weakened = { ...run('weakened', { b: 'failed', p: 'passed' }), covers: (id: string) => id !== 'a' };
    const first = weighEvidence({ original: [original, gold], buggy: [buggy('buggy')], partial: [weakened], need, reverts: [] });
    expect(first.failToPass).toEqual(['a', 'b']);
    expect(first.bugRuns).toEqual(['buggy', 'weakened']);
    // a is seen failing in "buggy" only: five runs of the bug need three reruns, and a then fails in four.
    expect(first.leastSeen).toBe(1);
    expect(first.deficit).toBe(3);
    const reruns = [2, 3, 4].map((i) => buggy(`buggy (run ${i})`));
    const enough = weighEvidence({ original: [original, gold], buggy: [buggy('buggy'), ...reruns], partial: [weakened], need, reverts: [] });
    expect(enough).toMatchObject({ deficit: 0, flaky: [], flippingFailures: [], passToPass: ['p'], leastSeen: 4 });
  });

  it('takes a covered failing test that passes in the weakened run as a flip, never only its failures', () => {
    // A coin-flip test: were the weakened run counted only when it fails there, its heads would be free and the bound would not hold.
    const weakened = { ...run('weakened', { a: 'failed', b: 'passed', p: 'passed' }), covers: () => true };
    const e = weighEvidence({ original: [original, gold], buggy: [buggy('buggy')], partial: [weakened], need, reverts: [] });
    expect(e.flippingFailures).toEqual([{ id: 'b', flips: 1, seen: 'failed in "buggy", passed in "weakened"' }]);
    expect(e.bugRuns).toEqual(['buggy']);
  });

  it('does not count a covered test the weakened run did not run', () => {
    const weakened = { ...run('weakened', { p: 'passed' }), covers: () => true };
    const e = weighEvidence({ original: [original, gold], buggy: [buggy('buggy')], partial: [weakened], need, reverts: [] });
    expect(e.bugRuns).toEqual(['buggy']);
    expect(e.flippingFailures).toEqual([]);
  });

  it('needs five runs of the buggy state when nothing else observes its failures', () => {
    const e = weighEvidence({ original: [original], buggy: [buggy('buggy')], partial: [], need, reverts: [] });
    expect(e.deficit).toBe(4);
  });

  it('names a passing test that flips as flaky and drops it, and refuses a failing test that flips', () => {
    const flakyPass = weighEvidence({ original: [original, { ...gold, results: { ...gold.results, p: 'failed' } }], buggy: [buggy('buggy'), buggy('buggy (run 2)')], partial: [], need, reverts: [] });
    expect(flakyPass.flaky).toEqual([{ id: 'p', flips: 1, seen: 'passed in "original", failed in "gold patch"' }]);
    expect(flakyPass.passToPass).toEqual([]);
    expect(flakyPass.flippingFailures).toEqual([]);
    const flipping = weighEvidence({ original: [original], buggy: [buggy('buggy'), buggy('buggy (run 2)', 'passed'), buggy('buggy (run 3)')], partial: [], need, reverts: [] });
    expect(flipping.flippingFailures).toEqual([{ id: 'a', flips: 2, seen: 'failed in "buggy", passed in "buggy (run 2)", failed in "buggy (run 3)"' }]);
  });

  it('tells a test that moves in and out of the runs from one that flips', () => {
    const e = weighEvidence({ original: [original, run('gold patch', { a: 'passed', b: 'passed' })], buggy: [buggy('buggy')], partial: [], need, reverts: [] });
    expect(e.moving).toEqual(['p: passed in "original", missing in "gold patch"']);
    expect(e.flaky).toEqual([]);
  });

  it('counts reverts that each fix a failing test as one run against a coin flip, only when there are two or more', () => {
    const weakened = { ...run('weakened', { a: 'failed', b: 'failed', p: 'passed' }), covers: () => true };
    const revertX = run('revert x.py', { a: 'passed', b: 'failed', p: 'passed' });
    const revertY = run('revert y.py', { a: 'failed', b: 'passed', p: 'passed' });
    const both = weighEvidence({ original: [original, gold], buggy: [buggy('buggy')], partial: [weakened], need, reverts: [revertX, revertY] });
    expect(both.restoringReverts).toEqual(['revert x.py', 'revert y.py']);
    // buggy + weakened + the reverts stand for three of five: two reruns, and every failing test is then seen failing in four.
    expect(both.deficit).toBe(2);
    const reruns = [2, 3].map((i) => buggy(`buggy (run ${i})`));
    expect(weighEvidence({ original: [original, gold], buggy: [buggy('buggy'), ...reruns], partial: [weakened], need, reverts: [revertX, revertY] }).deficit).toBe(0);
    // A revert that fixes nothing is no evidence (inverse mutation refuses the bug); nor is a single revert, which may take the coin away.
    const stuck = run('revert y.py', { a: 'failed', b: 'failed', p: 'passed' });
    expect(weighEvidence({ original: [original, gold], buggy: [buggy('buggy')], partial: [weakened], need, reverts: [revertX, stuck] })).toMatchObject({ restoringReverts: [], deficit: 3 });
    expect(weighEvidence({ original: [original, gold], buggy: [buggy('buggy')], partial: [weakened], need, reverts: [revertX] })).toMatchObject({ restoringReverts: [], deficit: 3 });
  });

  it('asks a majority of the bug runs of every failing test', () => {
    expect([1, 2, 3, 5, 12].map(perTestRuns)).toEqual([1, 2, 2, 3, 7]);
  });
});
