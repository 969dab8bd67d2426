/** A run's scope (issue 32, item 2): one object a run's steps share, its budget counting what earlier tries spent. */
import { describe, expect, it } from 'vitest';
import { openRunScope, RunScopeError } from '../../../src/pipeline/run-scope.js';
import { ignore } from '../../../src/pipeline/events.js';
import { putBug, putRun, workspace } from '../../helpers/workspace.js';

describe('openRunScope', () => {
  it("holds the run's id, settings and store, and a budget that starts from what the run spent before a resume", () => {
    const store = workspace();
    putRun(store, { id: 'run-a', kind: 'inject', n: 2 }, 1, (i) => ({ costUsd: i === 0 ? 0.25 : 0.5 }));
    putBug(store, 'bug-a', { runId: 'run-a', order: 1, analysis: { costUsd: 0.125 } as never });
    putRun(store, { id: 'run-b', kind: 'inject', n: 1 }, 2, () => ({ costUsd: 9 }));
    const scope = openRunScope({ id: 'run-a', settings: { runBudgetUsd: 1, note: 'kept' }, images: ['i'], concurrency: 1 }, { store }, ignore);
    expect(scope).toMatchObject({ id: 'run-a', settings: { note: 'kept' }, store });
    expect(scope.budget.spentUsd).toBeCloseTo(0.875);
    expect(scope.budget.leftUsd).toBeCloseTo(0.125);
  });

  it('refuses work placed before its engines are open, saying it is a bug of bugbench', () => {
    const scope = openRunScope({ id: 'run-x', settings: {}, images: ['i'], concurrency: 1 }, { store: workspace() }, ignore);
    expect(() => scope.place('run-x-r1', async () => undefined)).toThrow(RunScopeError);
  });
});
