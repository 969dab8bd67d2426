/** A run's yield as `inject --json` and `runs` give it (issue 34, item 23): a duplicate is not a valid bug. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRows } from '../../../src/commands/runs.js';
import { runResult } from '../../../src/pipeline/run-result.js';
import type { BugStatus, RolloutRecord } from '../../../src/store/records.js';
import { Store } from '../../../src/store/store.js';
import { bugRecord, VALID_CHECK } from '../../helpers/records.js';

function rollout(index: number, bugId: string | null): RolloutRecord {
  return { id: `r${index}`, runId: 'run-1', role: 'injector', index, status: bugId ? 'submitted' : 'no-bug', steps: 3, costUsd: 0, tokens: 0, durationMs: 1, trajectory: `runs/run-1/r${index}.jsonl`, bugId, detail: null, startedAt: null, finishedAt: null };
}

describe('a run’s yield', () => {
  it('counts the valid and accepted bugs, not the duplicates that passed the checks too', () => {
    const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-run-result-')) });
    const statuses: BugStatus[] = ['valid', 'duplicate', 'accepted', 'invalid', 'duplicate'];
    store.transact((tx) => {
      tx.put('runs', { id: 'run-1', kind: 'inject', status: 'finished', image: 'img:1', strategy: 'removal', policy: 'offline', model: 'offline/removal', n: 6, options: {}, owner: { host: 'h', pid: 1, start: '1' }, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null, error: null });
      statuses.forEach((status, i) => {
        const check = status === 'invalid' ? { ...VALID_CHECK, valid: false, failedCheck: 'tests-fail' } : VALID_CHECK;
        tx.put('bugs', bugRecord(`img-removal-${i}`, { status, check, runId: 'run-1', rollout: `r${i}`, fingerprint: String(i) }));
        tx.put('rollouts', rollout(i, `img-removal-${i}`));
      });
      tx.put('rollouts', rollout(5, null));
    });
    const result = runResult(store, 'run-1');
    expect(result.yield).toEqual({ rollouts: 6, submitted: 5, featuresThatBroke: null, valid: 2 });
    expect(result.bugs.filter((b) => b.status === 'duplicate').every((b) => b.valid)).toBe(true);
    expect(runRows(store)[0]!.bugs).toEqual({ submitted: 5, valid: result.yield.valid });
  });
});
