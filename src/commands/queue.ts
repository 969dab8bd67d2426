/**
 * `bugbench queue submit --engine slurm|ray|local --format swebench|sft|rl|harbor [--status S] [--command TEMPLATE]
 *    [--gpus N] [--cpus N] [--memory MB] [--time-limit MIN] [--include-scripted] [--force] [--json]`
 * `bugbench queue list [--json]`, `queue status <id> [--json]`, `queue logs <id> [--follow]`, `queue cancel <id>`
 */
import { UsageError } from '../errors.js';
import { cancelJob, jobLogs, refreshJob, refreshJobs, submitTraining } from '../pipeline/training.js';
import type { JobRecord } from '../store/records.js';
import { openStore } from '../store/store.js';
import { defaultEngine } from '../training/queue.js';
import { DATASET_FORMATS, ENGINE_NAMES, isTerminal, shownJobState, type DatasetFormat, type EngineName, type JobState } from '../training/types.js';
import { parseFlags, positiveInt, printJson, stderrProgress } from './args.js';
import { parseStatus } from './bugs.js';
import { formatTable } from './table.js';
import type { CommandModule } from './command.js';
import { formatChoices } from '../datasets/formats.js';

const USAGE = 'queue: use `queue submit`, `queue list`, `queue status <id>`, `queue logs <id>` or `queue cancel <id>`';

export async function queueCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'submit':
      return submit(rest);
    case 'list':
      return list(rest);
    case 'status':
      return status(rest);
    case 'logs':
      return logs(rest);
    case 'cancel':
      return cancel(rest);
    default:
      throw new UsageError(sub ? `queue: unknown subcommand "${sub}"; ${USAGE.slice('queue: '.length)}` : USAGE);
  }
}

function jobJson(job: JobRecord, store = openStore()) {
  return { ...job, dataset: store.abs(job.dataset), workdir: store.abs(job.workdir) };
}

const SUBMIT_FLAGS = {
  engine: { type: 'string' },
  format: { type: 'string' },
  status: { type: 'string' },
  command: { type: 'string' },
  gpus: { type: 'string' },
  cpus: { type: 'string' },
  memory: { type: 'string' },
  'time-limit': { type: 'string' },
  force: { type: 'boolean', default: false },
  'include-scripted': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

async function submit(args: string[]): Promise<number> {
  const { values } = parseFlags('queue submit', args, SUBMIT_FLAGS);
  const engine = (values.engine ?? defaultEngine()) as EngineName | undefined;
  if (!engine) throw new UsageError('queue submit: give --engine slurm|ray|local (no engine is configured; see `bugbench doctor`)');
  if (!ENGINE_NAMES.includes(engine)) throw new UsageError(`queue submit: --engine must be one of ${ENGINE_NAMES.join(', ')}, got "${engine}"`);
  const format = values.format as DatasetFormat | undefined;
  if (!format || !DATASET_FORMATS.includes(format)) throw new UsageError(`queue submit: --format must be one of ${DATASET_FORMATS.join(', ')}${format ? `, got "${format}"` : ''}`);
  if (values['include-scripted'] && format !== 'sft') throw new UsageError('queue submit: --include-scripted goes with --format sft');
  const store = openStore();
  const { job, created } = await submitTraining(store, {
    engine,
    format,
    status: parseStatus(values.status),
    command: values.command,
    resources: {
      gpus: positiveInt('gpus', values.gpus),
      cpus: positiveInt('cpus', values.cpus, 1),
      memoryMb: positiveInt('memory', values.memory, 1),
      timeLimitMinutes: positiveInt('time-limit', values['time-limit'], 1),
    },
    force: values.force,
    includeScripted: values['include-scripted'],
    progress: values.json ? undefined : stderrProgress,
  });
  if (values.json) printJson({ ...jobJson(job, store), created });
  else if (created) process.stdout.write(`${job.id} submitted: ${job.bugCount} ${job.status} bug(s) as ${job.format} (${job.dataset}); \`bugbench queue status ${job.id}\`\n`);
  else {
    process.stdout.write(
      `${job.id} was already submitted with the same bugs, format, command and resources (now ${job.state}); nothing new was submitted — \`bugbench queue status ${job.id}\`, or add --force to run it again\n`,
    );
  }
  return 0;
}

const LIST_FLAGS = { json: { type: 'boolean', default: false } } as const;

async function list(args: string[]): Promise<number> {
  const { values } = parseFlags('queue list', args, LIST_FLAGS);
  const store = openStore();
  const { jobs, errors } = await refreshJobs(store);
  for (const error of errors) process.stderr.write(`bugbench: could not refresh ${error}\n`);
  if (values.json) printJson(jobs.map((j) => jobJson(j, store)));
  else if (jobs.length === 0) process.stdout.write('no training jobs yet; submit the accepted bugs with `bugbench queue submit --engine E --format F`\n');
  else {
    process.stdout.write(
      formatTable(
        ['JOB', 'STATE', 'KIND', 'DATASET', 'BUGS', 'EXIT', 'SUBMITTED', 'REASON'],
        jobs.map((j) => [j.id, shownJobState(j), j.kind, j.format, String(j.bugCount), j.exitCode === null ? '-' : String(j.exitCode), j.submittedAt.slice(0, 16).replace('T', ' '), j.reason ?? '']),
      ),
    );
  }
  return 0;
}

const STATUS_FLAGS = { json: { type: 'boolean', default: false } } as const;

async function status(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('queue status', args, STATUS_FLAGS, 1);
  if (!positionals[0]) throw new UsageError('queue status: give a job id (see `bugbench queue list`)');
  const store = openStore();
  const job = await refreshJob(store, positionals[0]);
  if (values.json) printJson(jobJson(job, store));
  else process.stdout.write(`${job.id} ${shownJobState(job)}${job.rawState ? ` (${job.rawState})` : ''}${job.exitCode !== null ? `, exit ${job.exitCode}` : ''}${job.reason ? ` — ${job.reason}` : ''}\n`);
  return job.state === 'failed' ? 1 : 0;
}

const LOGS_FLAGS = { follow: { type: 'boolean', short: 'f', default: false }, tail: { type: 'string' } } as const;

async function logs(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('queue logs', args, LOGS_FLAGS, 1);
  const id = positionals[0];
  if (!id) throw new UsageError('queue logs: give a job id (see `bugbench queue list`)');
  const store = openStore();
  const tailBytes = positiveInt('tail', values.tail, 1);
  let shown = (await jobLogs(store, id, tailBytes)).text;
  process.stdout.write(shown);
  while (values.follow) {
    const job = await refreshJob(store, id);
    const text = (await jobLogs(store, id, tailBytes)).text;
    // The tail window slides once the log outgrows it: print what follows the part already shown.
    const at = text.startsWith(shown) ? shown.length : text.lastIndexOf(shown.slice(-200)) + Math.min(200, shown.length);
    if (at >= 0 && at < text.length) process.stdout.write(text.slice(at));
    shown = text;
    if (isTerminal(job.state as JobState)) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return 0;
}

const CANCEL_FLAGS = {} as const;

async function cancel(args: string[]): Promise<number> {
  const { positionals } = parseFlags('queue cancel', args, CANCEL_FLAGS, 1);
  if (!positionals[0]) throw new UsageError('queue cancel: give a job id (see `bugbench queue list`)');
  const job = await cancelJob(openStore(), positionals[0]);
  if (shownJobState(job) === 'cancelling') {
    process.stdout.write(`${job.id} cancelling; the engine still reports ${job.rawState || job.state} — \`bugbench queue status ${job.id}\` says when it has ended\n`);
  } else process.stdout.write(`${job.id} ${job.state}${job.reason ? ` — ${job.reason}` : ''}\n`);
  return 0;
}

export const command: CommandModule = {
  name: 'queue',
  summary: 'send the accepted bugs to a training job on a cluster engine, and follow it',
  usage: [
    `bugbench queue submit --engine ${ENGINE_NAMES.join('|')} --format ${formatChoices(DATASET_FORMATS)} [--status S] [--command TEMPLATE]`,
    '  [--gpus N] [--cpus N] [--memory MB] [--time-limit MIN] [--include-scripted] [--force] [--json]',
    'bugbench queue list [--json]',
    'bugbench queue status <job-id> [--json]',
    'bugbench queue logs <job-id> [--follow|-f] [--tail BYTES]',
    'bugbench queue cancel <job-id>',
  ],
  flags: { ...SUBMIT_FLAGS, ...LIST_FLAGS, ...STATUS_FLAGS, ...LOGS_FLAGS, ...CANCEL_FLAGS },
  run: queueCommand,
};
