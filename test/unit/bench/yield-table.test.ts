import { describe, expect, it } from 'vitest';
import { median, yieldTable, type YieldRow } from '../../../bench/yield-table.js';

const row: YieldRow = {
  sample: 'knotcfg',
  language: 'python',
  policy: 'offline',
  strategy: 'removal',
  candidates: 6,
  submitted: 5,
  valid: 3,
  testRunsPerBug: 11.4,
  cpuSecondsPerValid: 12.345, cpuSecondsPerValidBy: null,
  containers: 9,
  unreadContainers: 0,
  wallSecondsPerValid: 4.25,
  medianLines: 7,
  medianFiles: 2,
  solveRate: 1 / 3,
};

describe('the yield table', () => {
  it('writes a row in SWE-smith column order: candidates, submitted, valid, yield, then costs and sizes', () => {
    const [header, rule, line] = yieldTable([row]).split('\n');
    expect(header).toBe('| sample | language | strategy | candidates | submitted | valid | yield | runs/bug | CPU s/valid | wall s/valid | lines | files | solve (mix) |');
    expect(rule).toBe('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    expect(line).toBe('| `knotcfg` | python | removal | 6 | 5 | 3 | 50% | 11.4 | 12.3 | 4.3 | 7 | 2 | 33% |');
  });

  it('marks what a row with no valid bug cannot say, and names a model policy beside its strategy', () => {
    const none = { ...row, policy: 'anthropic', strategy: 'buginstruct', valid: 0, cpuSecondsPerValid: null, wallSecondsPerValid: null, medianLines: null, medianFiles: null, solveRate: null };
    expect(yieldTable([none]).split('\n')[2]).toBe('| `knotcfg` | python | buginstruct (anthropic) | 6 | 5 | 0 | 0% | 11.4 | – | – | – | – | – |');
  });

  it('takes the middle of an odd count and the mean of the middle two of an even one', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
