/**
 * `bugbench cluster-task <run-id> --task N`: what one task of a cluster run's
 * job array runs on its node (Slurm starts it; see pipeline/cluster-run.ts).
 * It does the task's share of the run with the node's engine; SIGTERM
 * (scancel) stops its rollouts and removes their containers.
 */
import { hostname } from 'node:os';
import { UsageError } from '../errors.js';
import { clusterOf } from '../pipeline/cluster-run.js';
import { runInjectionShare } from '../pipeline/inject.js';
import { runSolveShare } from '../pipeline/solve.js';
import { nodeEngine } from '../sandbox/node-engine.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { RecordNotFoundError, openStore } from '../store/store.js';
import { parseFlags, positiveInt } from './args.js';
import { cancelOnInterrupt } from './interrupt.js';
import { lineReporter } from './reporter.js';
import type { CommandModule } from './command.js';

const FLAGS = { task: { type: 'string' } } as const;

export async function clusterTaskCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('cluster-task', args, FLAGS, 1);
  const runId = positionals[0];
  const task = positiveInt('task', values.task);
  if (!runId || task === undefined) throw new UsageError('cluster-task: give the run id and --task N (Slurm starts this for `inject --cluster` and `solve --cluster`)');
  const store = openStore();
  const run = store.get('runs', runId);
  const cluster = run && clusterOf(run);
  if (!run || !cluster) throw new RecordNotFoundError('runs', runId);
  const share = cluster.shares[task];
  if (!share) throw new UsageError(`cluster-task: run ${runId} has ${cluster.shares.length} task(s), not ${task + 1}`);
  // The node's engine: Docker if this user may use it, else the user's rootless Podman (started here if need be).
  const engine = await nodeEngine();
  process.env.DOCKER_HOST = engine.host;
  // Containers of tasks that died on this node before go first.
  await defaultContainerEngine().reapOrphans();
  const node = hostname();
  process.stdout.write(`engine: ${engine.description}\n`);
  const what = run.kind === 'solve' ? 'attempts' : 'rollouts';
  process.stdout.write(`task ${task} of job ${cluster.jobId} on ${node}: ${what} ${share.indices.map((i) => i + 1).join(', ') || 'none'}${share.recheck.length > 0 ? `, checks of ${share.recheck.join(', ')}` : ''}\n`);
  const interrupt = cancelOnInterrupt(`task ${task} of run ${runId}`);
  // The task's output file is its log: every line goes to stdout.
  const report = lineReporter({ json: false, write: (line) => void process.stdout.write(`${line}\n`) });
  const deps = { store, signal: interrupt.signal, where: { task, node } };
  try {
    if (run.kind === 'solve') await runSolveShare({ runId, indices: share.indices }, deps, report);
    else await runInjectionShare({ runId, ...share }, deps, report);
  } finally {
    interrupt.dispose();
    await engine.stop();
  }
  return interrupt.signal.aborted ? 130 : 0;
}

export const command: CommandModule = {
  name: 'cluster-task',
  summary: 'run one task of a cluster run (Slurm starts it for `inject --cluster`)',
  usage: [
    'bugbench cluster-task <run-id> --task N',
  ],
  flags: FLAGS,
  run: clusterTaskCommand,
};
