import { describe, expect, it } from 'vitest';
import { unfinishedSolves } from '../../../src/commands/show.js';
import type { AttemptRecord } from '../../../src/store/records.js';

const attempt = (runId: string, index: number, status: AttemptRecord['status'], solved: boolean | null = null): AttemptRecord => ({
  id: `${runId}-${index}`,
  bugId: 'knotcfg-removal-aaaa1111',
  runId,
  index,
  solver: 'oracle',
  statement: 'template',
  status,
  solved,
  failing: [],
  reward: solved === null ? null : solved ? 1 : -1,
  patch: null,
  evalLog: null,
  evalRunMs: null,
  detail: null,
  createdAt: '2026-11-28T10:00:00.000Z',
});

describe('show, on solve runs that never finished', () => {
  it('names each with its attempts by status, and leaves out the summarised run and any run that ended', () => {
    const attempts = [
      attempt('solve-1', 0, 'evaluated', true),
      attempt('solve-2', 0, 'evaluated', true),
      attempt('solve-2', 1, 'pending'),
      attempt('solve-2', 2, 'cancelled'),
      attempt('solve-3', 0, 'evaluated', false),
    ];
    expect(unfinishedSolves(attempts, 'solve-1')).toEqual([
      'solve run solve-2 did not finish: 3 attempt(s) (1 evaluated, 1 pending, 1 cancelled; 1 solved it), so it gave no solve rate; `bugbench solve knotcfg-removal-aaaa1111` starts another',
    ]);
    expect(unfinishedSolves(attempts.slice(0, 1), 'solve-1')).toEqual([]);
  });
});
