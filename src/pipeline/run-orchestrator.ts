/**
 * The shape injection and solving share: a run is recorded with its pending
 * rollouts before anything starts; its work items are placed on the run's
 * engines, C at a time; and once they are done (containers removed), the run
 * gets its final status — `finished`, `cancelled` when its signal aborted,
 * `failed` with the error when the work threw. Cluster runs deal the same
 * items into shares (cluster-run.ts) and each task runs its share in a run
 * scope of its own (run-scope.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Role } from '../agent/events.js';
import { currentProcess } from '../process-identity.js';
import type { RolloutRecord, RunRecord } from '../store/records.js';
import type { Store, Transaction } from '../store/store.js';
import type { RunScope } from './run-scope.js';

/** A run id: its kind, when it started (to the second), and four random hex digits. */
export function newRunId(prefix: 'run' | 'solve'): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${prefix}-${stamp}-${randomUUID().slice(0, 4)}`;
}

/** The run's folder in the workspace (trajectories, patches, logs). */
export function runDir(store: Store, runId: string): string {
  return store.abs(join('runs', runId));
}

export type NewRun = Omit<RunRecord, 'id' | 'status' | 'owner' | 'startedAt' | 'finishedAt' | 'error'>;

/**
 * Records a run (running, owned by this process) and its `n` rollouts
 * (pending, ids `<run>-<prefix><i>`), plus whatever `more` writes in the
 * same transaction; returns the rollout ids in order.
 */
export function recordRun(store: Store, record: { id: string; run: NewRun; rollouts: { role: Role; prefix: 'r' | 'a' } }, more?: (tx: Transaction, ids: string[]) => void): string[] {
  const { id: runId, run, rollouts } = record;
  const now = new Date().toISOString();
  const ids = Array.from({ length: run.n }, (_, i) => `${runId}-${rollouts.prefix}${i + 1}`);
  mkdirSync(runDir(store, runId), { recursive: true });
  store.transact((tx) => {
    tx.put('runs', { ...run, id: runId, status: 'running', owner: currentProcess(), startedAt: now, finishedAt: null, error: null });
    ids.forEach((id, index) => {
      const rollout: RolloutRecord = {
        id,
        runId,
        role: rollouts.role,
        index,
        status: 'pending',
        steps: 0,
        costUsd: 0,
        tokens: 0,
        durationMs: 0,
        trajectory: join('runs', runId, `${id}.jsonl`),
        bugId: null,
        detail: null,
        startedAt: null,
        finishedAt: null,
      };
      tx.put('rollouts', rollout);
    });
    more?.(tx, ids);
  });
  return ids;
}

/** Runs a recorded run's work and records how it ended; the work's error is recorded and thrown again. */
export async function finishRun<T>(run: Pick<RunScope, 'id' | 'store' | 'signal' | 'report'>, work: () => Promise<T>): Promise<T> {
  const { id: runId, store, report } = run;
  let result: T;
  try {
    result = await work();
  } catch (error) {
    store.transact((tx) => tx.patch('runs', runId, { status: 'failed', finishedAt: new Date().toISOString(), error: String(error) }));
    report({ type: 'run-finished', runId, status: 'failed' });
    throw error;
  }
  const status = run.signal?.aborted ? 'cancelled' : 'finished';
  store.transact((tx) => tx.patch('runs', runId, { status, finishedAt: new Date().toISOString() }));
  report({ type: 'run-finished', runId, status });
  return result;
}
