/**
 * `bugbench cancel <run-id>`: stops a run from any terminal. A cluster run's
 * job array is cancelled (every task); a run of a bugbench process on this
 * machine gets that process's Ctrl-C (SIGINT), which stops it cleanly.
 */
import { hostname } from 'node:os';
import { UsageError } from '../errors.js';
import { cancelClusterRun, clusterOf, reconcileClusterRun } from '../pipeline/cluster-run.js';
import { processAlive } from '../process-identity.js';
import { RecordNotFoundError, openStore } from '../store/store.js';
import { parseFlags } from './args.js';
import type { CommandModule } from './command.js';

const FLAGS = {} as const;

export async function cancelCommand(args: string[]): Promise<number> {
  const { positionals } = parseFlags('cancel', args, FLAGS, 1);
  const runId = positionals[0];
  if (!runId) throw new UsageError('cancel: give the run id (see `bugbench runs`)');
  const store = openStore();
  const run = store.get('runs', runId);
  if (!run) throw new RecordNotFoundError('runs', runId);
  if (run.status !== 'running') throw new UsageError(`run ${runId} is ${run.status}, not running`);
  if (clusterOf(run)) {
    await cancelClusterRun(store, runId);
    process.stdout.write(`cancelled job ${run.cluster!.jobId} of run ${runId}; its tasks stop their rollouts\n`);
    await reconcileClusterRun(store, runId, true).catch(() => undefined);
    return 0;
  }
  if (run.owner.host !== hostname() || !processAlive(run.owner)) throw new UsageError(`run ${runId} belongs to process ${run.owner.pid} on ${run.owner.host}, which this machine cannot signal`);
  process.kill(run.owner.pid, 'SIGINT');
  process.stdout.write(`asked process ${run.owner.pid} to stop run ${runId}\n`);
  return 0;
}

export const command: CommandModule = {
  name: 'cancel',
  summary: 'stop a run from any terminal (a cluster run: its whole job array)',
  usage: [
    'bugbench cancel <run-id>',
  ],
  flags: FLAGS,
  run: cancelCommand,
};
