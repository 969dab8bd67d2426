/**
 * Following a cluster run until it ends: its rollouts live from the workspace
 * (run-follow.ts), its bugs once the tasks recorded their verdicts, its tasks'
 * states from Slurm (each change reported once),
 * and the whole array cancelled when the signal aborts. The CLI and the
 * workbench follow a cluster run through this.
 */
import { errorMessage } from '../errors.js';
import { cancelClusterRun, reconcileClusterRun, type TaskState } from './cluster-run.js';
import type { Deps, Report } from './events.js';
import { followRun } from './run-follow.js';
import { injectedBug } from './run-result.js';

/** "RUNNING on n1", "FAILED (NonZeroExitCode)". */
function taskText(s: TaskState): string {
  return `${s.rawState || s.state}${s.node ? ` on ${s.node}` : ''}${s.reason && s.state !== 'running' && s.state !== 'succeeded' ? ` (${s.reason})` : ''}`;
}

/** Reports the run's rollouts and tasks until every task has ended (the run then has its final status). */
export async function followClusterRun(runId: string, deps: Pick<Deps, 'store' | 'signal'>, report: Report): Promise<void> {
  const { store, signal } = deps;
  let cancelling: Promise<void> | undefined;
  const cancel = () => {
    cancelling ??= cancelClusterRun(store, runId).then(
      () => report({ type: 'cluster', event: { type: 'cancelled', runId } }),
      (error: unknown) => report({ type: 'cluster', event: { type: 'cancelled', runId, error: errorMessage(error) } }),
    );
  };
  if (signal?.aborted) cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  const seen = new Map<number, string>();
  // Verdicts from before (an earlier array of a resumed run) are not news.
  const judged = new Set(store.all('bugs').filter((b) => b.runId === runId && b.status !== 'checking').map((b) => b.id));
  /** Bugs of the run that got their verdict since the last look, each once. */
  const verdicts = () => {
    for (const bug of store.all('bugs')) {
      if (bug.runId !== runId || bug.status === 'checking' || judged.has(bug.id)) continue;
      judged.add(bug.id);
      report({ type: 'bug', bug: injectedBug(store, bug) });
    }
  };
  try {
    const until = async () => {
      await cancelling;
      for (const s of await reconcileClusterRun(store, runId, signal?.aborted === true)) {
        const text = taskText(s);
        if (seen.get(s.task) !== text) report({ type: 'cluster', event: { type: 'task', runId, task: s.task, text } });
        seen.set(s.task, text);
      }
      verdicts();
      return store.get('runs', runId)?.status !== 'running';
    };
    await followRun({ runId, intervalMs: 1000 }, { store, until }, report);
    verdicts();
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
