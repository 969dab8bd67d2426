/**
 * Work a dead process left half done: its runs become `interrupted`, their
 * rollouts that were under way too, and bugs whose checks it was running
 * get back the verdict they had before, or become `cancelled` when they had
 * none (never `invalid`: nothing was judged). Cheap when there
 * is nothing to do, so every command that starts work calls it.
 */
import { processAlive } from '../process-identity.js';
import { statusOf } from './check-summary.js';
import { duplicateRoot } from './duplicates.js';
import type { Store } from './store.js';

export interface Recovered {
  runs: string[];
  rollouts: string[];
  bugs: string[];
}

export function recoverAbandoned(store: Store): Recovered {
  const recovered: Recovered = { runs: [], rollouts: [], bugs: [] };
  const deadRun = (id: string | null) => {
    const run = id ? store.get('runs', id) : undefined;
    // A cluster run lives as long as its job array, whatever became of the process that submitted it (cluster-run.ts).
    return run !== undefined && run.status === 'running' && !run.cluster && !processAlive(run.owner);
  };
  const runs = store.all('runs').filter((r) => deadRun(r.id));
  const bugs = store.all('bugs').filter((b) => b.status === 'checking' && !(b.checkingBy && processAlive(b.checkingBy)));
  if (runs.length === 0 && bugs.length === 0) return recovered;
  const now = new Date().toISOString();
  store.transact((tx) => {
    for (const run of runs) {
      if (tx.get('runs', run.id)?.status !== 'running') continue;
      tx.patch('runs', run.id, { status: 'interrupted', finishedAt: now, error: `process ${run.owner.pid} on ${run.owner.host} stopped before the run finished` });
      recovered.runs.push(run.id);
      for (const rollout of store.all('rollouts')) {
        if (rollout.runId !== run.id || rollout.status !== 'running') continue;
        tx.patch('rollouts', rollout.id, { status: 'interrupted', finishedAt: now, detail: 'the process running it stopped' });
        recovered.rollouts.push(rollout.id);
      }
      for (const attempt of store.all('attempts')) {
        if (attempt.runId === run.id && attempt.status === 'running') tx.patch('attempts', attempt.id, { status: 'interrupted', detail: 'the process running it stopped' });
      }
    }
    for (const bug of bugs) {
      if (tx.get('bugs', bug.id)?.status !== 'checking') continue;
      let status = bug.check && !bug.check.cancelled ? statusOf(bug.check) : 'cancelled';
      const root = status === 'valid' ? duplicateRoot(store.all('bugs'), bug) : undefined;
      if (root) status = 'duplicate';
      tx.patch('bugs', bug.id, { status, ...(root ? { duplicateOf: root } : {}), checkingBy: null, updatedAt: now });
      recovered.bugs.push(bug.id);
    }
  });
  return recovered;
}
