/** `bugbench runs [--json]`: every run of the workspace, newest first, with what it made. */
import { reconcileClusterRun } from '../pipeline/cluster-run.js';
import { recoveredStore } from '../pipeline/startup.js';
import type { Store } from '../store/store.js';
import { countsAsValid, type RunRecord } from '../store/records.js';
import { parseFlags, printJson } from './args.js';
import { formatTable } from './table.js';

export interface RunRow extends RunRecord {
  rollouts: { total: number; finished: number };
  bugs: { submitted: number; valid: number };
}

export function runRows(store: Store): RunRow[] {
  const rows = new Map<string, RunRow>();
  for (const run of store.all('runs')) rows.set(run.id, { ...run, rollouts: { total: 0, finished: 0 }, bugs: { submitted: 0, valid: 0 } });
  for (const rollout of store.all('rollouts')) {
    const row = rows.get(rollout.runId);
    if (!row) continue;
    row.rollouts.total++;
    if (!['pending', 'running', 'interrupted'].includes(rollout.status)) row.rollouts.finished++;
    if (rollout.bugId) {
      row.bugs.submitted++;
      const status = store.get('bugs', rollout.bugId)?.status;
      if (status && countsAsValid(status)) row.bugs.valid++;
    }
  }
  return [...rows.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

export async function runsCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('runs', args, { json: { type: 'boolean', default: false } });
  const store = recoveredStore();
  // A cluster run's status comes from its job array: ask Slurm about those still running (best effort).
  for (const run of store.all('runs').filter((r) => r.status === 'running' && r.cluster)) await reconcileClusterRun(store, run.id).catch(() => undefined);
  const rows = runRows(store);
  if (values.json) printJson(rows);
  else if (rows.length === 0) process.stdout.write('no runs yet; start one with `bugbench inject`\n');
  else {
    process.stdout.write(
      formatTable(
        ['RUN', 'KIND', 'STATUS', 'IMAGE', 'STRATEGY', 'POLICY', 'ROLLOUTS', 'VALID', 'STARTED', 'WHERE'],
        rows.map((r) => [r.id, r.kind, r.status, r.image, r.strategy, r.policy, `${r.rollouts.finished}/${r.rollouts.total}`, `${r.bugs.valid}/${r.bugs.submitted}`, r.startedAt.slice(0, 16).replace('T', ' '), r.cluster ? `slurm job ${r.cluster.jobId} (${r.cluster.tasks} tasks)` : 'here']),
      ),
    );
    const resumable = rows.filter((r) => r.kind === 'inject' && (r.status === 'interrupted' || r.status === 'cancelled'));
    if (resumable.length > 0) process.stdout.write(`\nfinish an interrupted or cancelled run with \`bugbench inject --resume ${resumable[0]!.id}\`\n`);
  }
  return 0;
}
