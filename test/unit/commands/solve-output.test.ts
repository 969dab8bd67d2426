/**
 * What `bugbench solve` prints: a cancelled run gives no verdict made from
 * attempts it never judged (text and JSON), and an attempt's status reads the
 * same in both.
 */
import { describe, expect, it } from 'vitest';
import { solveJson, solveLines } from '../../../src/commands/solve-output.js';
import type { AttemptSummary } from '../../../src/pipeline/events.js';
import type { SolveResult } from '../../../src/pipeline/solve.js';

function attempt(i: number, fields: Partial<AttemptSummary>): AttemptSummary {
  return { id: `solve-1-a${i}`, solver: 'offline/oracle', status: 'pending', solved: false, failing: [], patchPath: null, trajectory: `/w/runs/solve-1/solve-1-a${i}.jsonl`, reward: null, evalRunMs: null, ...fields };
}

// What summarizeSolve gives for a run cancelled 2 s in: nothing judged, and a "rate" of 0 over no attempts.
const CANCELLED: SolveResult = {
  bugId: 'knotcfg-removal-f07459f9',
  runId: 'solve-1',
  attempts: [attempt(1, { status: 'cancelled' }), attempt(2, { status: 'cancelled' }), attempt(3, {}), attempt(4, {})],
  solveRate: 0,
  injectReward: -0.8,
  alpha: 0.8,
};

const FINISHED: SolveResult = {
  bugId: 'knotcfg-removal-f07459f9',
  runId: 'solve-2',
  attempts: [
    attempt(1, { status: 'evaluated', solved: true, reward: 1 }),
    attempt(2, { solver: 'offline/noop', status: 'evaluated', solved: false, reward: -1, failing: ['t'] }),
    attempt(3, { solver: 'offline/noop', status: 'unsubmitted', reward: -1 }),
  ],
  solveRate: 1 / 3,
  injectReward: 0.8 * (1 - 1 / 3),
  alpha: 0.8,
};

describe('solve output', () => {
  it('says a cancelled run was cancelled and prints no solve rate or reward', () => {
    const lines = solveLines(CANCELLED, 'cancelled');
    expect(lines[0]).toContain('knotcfg-removal-f07459f9: solve cancelled — 0 of 4 attempt(s) judged (0 solved)');
    const text = lines.join('\n');
    expect(text).not.toMatch(/solve rate \d|injection reward -?\d|-0\.800/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[3])).toEqual(['cancelled', 'cancelled', 'pending', 'pending']);
  });

  it('gives a cancelled run status cancelled and null rate and reward in JSON', () => {
    expect(solveJson(CANCELLED, 'cancelled')).toMatchObject({ bugId: CANCELLED.bugId, runId: 'solve-1', status: 'cancelled', solveRate: null, injectReward: null, alpha: 0.8 });
  });

  it('gives a finished run its verdict, with the same status word per attempt as the JSON', () => {
    const lines = solveLines(FINISHED, 'finished');
    expect(lines[0]).toBe('knotcfg-removal-f07459f9: solved 1 of 3 — solve rate 0.333, injection reward 0.533 (α 0.8)');
    const json = solveJson(FINISHED, 'finished');
    expect(json).toMatchObject({ status: 'finished', solveRate: FINISHED.solveRate, injectReward: FINISHED.injectReward });
    expect(lines.slice(1).map((l) => l.split(/\s+/)[3])).toEqual(json.attempts.map((a) => a.status));
    expect(lines[1]).toMatch(/evaluated\s+solved\s+\+1$/);
    expect(lines[2]).toMatch(/evaluated\s+not solved\s+-1$/);
    expect(lines[3]).toMatch(/unsubmitted\s+-1$/);
  });
});
