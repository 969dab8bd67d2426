/** `bugbench runs [--json]`: every run of the workspace, newest first, with what it made. */
import { reconcileClusterRun } from '../pipeline/cluster-run.js';
import { imagesLabel } from '../pipeline/corpus.js';
import { isResumable } from '../pipeline/start-injection.js';
import { recoveredStore } from '../pipeline/startup.js';
import type { Store } from '../store/store.js';
import { countsAsValid, type RunRecord } from '../store/records.js';
import { parseFlags, printJson } from './args.js';
import { formatTable } from './table.js';
import type { CommandModule } from './command.js';

export interface RunRow extends RunRecord {
  /** Rollouts that ended on their own (submitted, found no bug, hit a limit, failed) — not cancelled, interrupted or waiting. */
  rollouts: { total: number; finished: number };
  /** An injection's bugs. */
  bugs: { submitted: number; valid: number };
  /** A solve run's attempts: judged (evaluated, or ended without a patch) and solved. */
  attempts: { judged: number; solved: number };
  /** An interrupted or cancelled injection `inject --resume` can finish. */
  resumable: boolean;
}

/** Rollout states that are not an end of the rollout's own: it still waits or runs, or was stopped. */
const UNFINISHED = ['pending', 'running', 'interrupted', 'cancelled'];

export function runRows(store: Store): RunRow[] {
  const rows = new Map<string, RunRow>();
  for (const run of store.all('runs')) rows.set(run.id, { ...run, rollouts: { total: 0, finished: 0 }, bugs: { submitted: 0, valid: 0 }, attempts: { judged: 0, solved: 0 }, resumable: isResumable(run) });
  for (const attempt of store.all('attempts')) {
    const row = rows.get(attempt.runId);
    if (!row || (attempt.status !== 'evaluated' && attempt.status !== 'unsubmitted')) continue;
    row.attempts.judged++;
    if (attempt.solved) row.attempts.solved++;
  }
  for (const rollout of store.all('rollouts')) {
    const row = rows.get(rollout.runId);
    if (!row) continue;
    row.rollouts.total++;
    if (!UNFINISHED.includes(rollout.status)) row.rollouts.finished++;
    if (rollout.bugId) {
      row.bugs.submitted++;
      const status = store.get('bugs', rollout.bugId)?.status;
      if (status && countsAsValid(status)) row.bugs.valid++;
    }
  }
  return [...rows.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** What a run made: "2/3 valid" of the bugs submitted, or for a solve run "3/8 solved" of the attempts judged. */
function result(row: RunRow): string {
  return row.kind === 'solve' ? `${row.attempts.solved}/${row.attempts.judged} solved` : `${row.bugs.valid}/${row.bugs.submitted} valid`;
}

const FLAGS = { json: { type: 'boolean', default: false } } as const;

export async function runsCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('runs', args, FLAGS);
  const store = recoveredStore();
  // A cluster run's status comes from its job array: ask Slurm about those still running (best effort).
  for (const run of store.all('runs').filter((r) => r.status === 'running' && r.cluster)) await reconcileClusterRun(store, run.id).catch(() => undefined);
  const rows = runRows(store);
  if (values.json) printJson(rows);
  else if (rows.length === 0) process.stdout.write('no runs yet; start one with `bugbench inject`\n');
  else {
    process.stdout.write(
      formatTable(
        ['RUN', 'KIND', 'STATUS', 'IMAGE', 'STRATEGY', 'POLICY', 'ROLLOUTS', 'RESULT', 'STARTED', 'WHERE'],
        rows.map((r) => [r.id, r.kind, r.status, imagesLabel(r), r.strategy, r.policy, `${r.rollouts.finished}/${r.rollouts.total}`, result(r), r.startedAt.slice(0, 16).replace('T', ' '), r.cluster ? `slurm job ${r.cluster.jobId} (${r.cluster.tasks} tasks)` : 'here']),
      ),
    );
    const resumable = rows.filter((r) => r.resumable);
    if (resumable.length === 1) process.stdout.write(`\nfinish an interrupted or cancelled run with \`bugbench inject --resume ${resumable[0]!.id}\`\n`);
    else if (resumable.length > 1) process.stdout.write(`\n${resumable.length} interrupted or cancelled runs can be finished with \`bugbench inject --resume RUN\`: ${resumable.map((r) => r.id).join(', ')}\n`);
  }
  return 0;
}

export const command: CommandModule = {
  name: 'runs',
  summary: 'list the runs of the workspace (and which can be resumed)',
  usage: [
    'bugbench runs [--json]',
  ],
  flags: FLAGS,
  run: runsCommand,
};
