/** Following a cluster run from the CLI: its rollouts live from the workspace, its tasks' states from Slurm, Ctrl-C cancels the array. */
import { cancelClusterRun, reconcileClusterRun, type TaskState } from '../pipeline/cluster-run.js';
import { followRun } from '../pipeline/run-follow.js';
import type { Store } from '../store/store.js';
import { lineReporter } from './reporter.js';

export async function followClusterRun(store: Store, runId: string, options: { quiet: boolean; signal: AbortSignal }): Promise<void> {
  const say = (line: string) => {
    if (!options.quiet) process.stderr.write(`${line}\n`);
  };
  let cancelling: Promise<void> | undefined;
  const cancel = () => {
    cancelling ??= cancelClusterRun(store, runId).then(
      () => say(`cancelled the job array of run ${runId}; waiting for its tasks to stop`),
      (error: unknown) => say(`could not cancel the array: ${String(error)}`),
    );
  };
  if (options.signal.aborted) cancel();
  options.signal.addEventListener('abort', cancel, { once: true });
  const seen = new Map<number, string>();
  const report = (states: TaskState[]) => {
    for (const s of states) {
      const text = `${s.rawState || s.state}${s.node ? ` on ${s.node}` : ''}${s.reason && s.state !== 'running' && s.state !== 'succeeded' ? ` (${s.reason})` : ''}`;
      if (seen.get(s.task) !== text) say(`task ${s.task}: ${text}`);
      seen.set(s.task, text);
    }
  };
  try {
    const until = async () => {
      await cancelling;
      report(await reconcileClusterRun(store, runId, options.signal.aborted));
      return store.get('runs', runId)?.status !== 'running';
    };
    await followRun({ runId, intervalMs: 1000 }, { store, until }, lineReporter({ json: options.quiet }));
  } finally {
    options.signal.removeEventListener('abort', cancel);
  }
}
