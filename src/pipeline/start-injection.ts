/**
 * The one way an injection run starts, for every front end: a new run (its
 * defaults applied in inject-settings.ts) on this machine's engines or as a
 * Slurm job array, or the resume of a run that was interrupted or cancelled —
 * on the cluster again if it ran there. A cluster run is followed until its
 * tasks end (cancelling the signal cancels the array); the result is the same
 * either way.
 */
import { UsageError } from '../errors.js';
import type { RunRecord } from '../store/records.js';
import { RecordNotFoundError } from '../store/store.js';
import { followClusterRun } from './cluster-follow.js';
import { clusterOf, resumeClusterInjection, submitClusterInjection } from './cluster-run.js';
import { ignore, type Deps, type Report } from './events.js';
import { resumeInjection, runInjection } from './inject.js';
import { INJECT_DEFAULTS, injectSettings, type InjectRequest } from './inject-settings.js';
import { runResult, type InjectResult } from './run-result.js';

/** An injection run that was interrupted or cancelled: a resume finishes it. */
export function isResumable(run: RunRecord): boolean {
  return run.kind === 'inject' && (run.status === 'interrupted' || run.status === 'cancelled');
}

export type InjectionStart =
  /** A new run; with `cluster`, a Slurm job array of `tasks` tasks (default INJECT_DEFAULTS.tasks). */
  | { request: InjectRequest; cluster?: { tasks?: number } }
  /** The rest of a recorded run, with its own settings, where it ran; `cluster` only for a run that ran on the cluster (its tasks by default). */
  | { resume: string; cluster?: { tasks?: number } };

export async function startInjection(start: InjectionStart, deps: Deps, report: Report = ignore): Promise<InjectResult> {
  const { store } = deps;
  if ('resume' in start) {
    const run = store.get('runs', start.resume);
    if (!run || run.kind !== 'inject') throw new RecordNotFoundError('runs', start.resume);
    if (!clusterOf(run)) {
      if (start.cluster) throw new UsageError(`run ${run.id} did not run on a cluster; resume it without --cluster and --tasks`);
      return resumeInjection(run.id, deps, report);
    }
    // A cluster run goes on as a new job array of what is left.
    const { jobId } = await resumeClusterInjection(store, run.id, start.cluster?.tasks);
    report({ type: 'run-started', runId: run.id, kind: 'inject' });
    return followed({ runId: run.id, jobId, resumed: true }, deps, report);
  }
  const settings = injectSettings(start.request);
  if (!start.cluster) return runInjection(settings, deps, report);
  const { runId, jobId } = await submitClusterInjection({ settings, tasks: start.cluster.tasks ?? INJECT_DEFAULTS.tasks }, { store }, report);
  return followed({ runId, jobId, resumed: false }, deps, report);
}

/** Reports the array just submitted, follows the run until its tasks end, and returns its result. */
async function followed(array: { runId: string; jobId: string; resumed: boolean }, deps: Deps, report: Report): Promise<InjectResult> {
  const { runId } = array;
  const tasks = clusterOf(deps.store.get('runs', runId)!)?.tasks ?? 0;
  report({ type: 'cluster', event: { type: 'submitted', runId, jobId: array.jobId, tasks, resumed: array.resumed } });
  await followClusterRun(runId, deps, report);
  return runResult(deps.store, runId);
}
