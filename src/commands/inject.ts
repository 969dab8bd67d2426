/**
 * `bugbench inject --image T [--image T2 …] [--images FILE] --strategy S [--policy anthropic|openai|offline] [--model M] [--base-url URL]
 *   [--api-key KEY] [--price-in USD] [--price-out USD] [-n N] [--concurrency C] [--seed X]
 *   [--max-steps N] [--max-tokens N] [--budget USD] [--run-budget USD] [--min-passing N] [--min-changed-files N]
 *   [--min-failing N] [--timeout S] [--buggy-runs N] [--max-weakened-tests N] [--json]`
 * `bugbench inject --resume RUN-ID [--json]` finishes an interrupted or cancelled run with its own options.
 * Several images (repeated --image, or a file of them) make a run over a corpus (pipeline/corpus.ts).
 */
import { readFileSync } from 'node:fs';
import type { CheckParams } from '../bugs/meta.js';
import { UsageError } from '../errors.js';
import { INJECT_DEFAULTS } from '../pipeline/inject-settings.js';
import { STRATEGIES, unfinishedWork, type InjectRequest, type InjectResult, type InjectStrategy } from '../pipeline/inject.js';
import { POLICY_CHOICES, POLICY_FLAGS, policySettings } from './policy-flags.js';
import { corpusFrom, parseImageList } from '../pipeline/corpus.js';
import { startInjection, type InjectionStart } from '../pipeline/start-injection.js';
import { openWorkspace } from '../pipeline/startup.js';
import { parseFlags, positiveInt, positiveNumber, printJson } from './args.js';
import { cancelOnInterrupt } from './interrupt.js';
import { lineReporter } from './reporter.js';
import type { CommandModule } from './command.js';

const FLAGS = {
  image: { type: 'string', multiple: true },
  images: { type: 'string' },
  strategy: { type: 'string' },
  ...POLICY_FLAGS,
  n: { type: 'string', short: 'n' },
  concurrency: { type: 'string' },
  seed: { type: 'string' },
  'max-steps': { type: 'string' },
  'max-tokens': { type: 'string' },
  budget: { type: 'string' },
  'run-budget': { type: 'string' },
  'min-passing': { type: 'string' },
  'min-changed-files': { type: 'string' },
  'min-failing': { type: 'string' },
  timeout: { type: 'string' },
  'buggy-runs': { type: 'string' },
  'max-weakened-tests': { type: 'string' },
  resume: { type: 'string' },
  cluster: { type: 'string' },
  tasks: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export async function injectCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('inject', args, FLAGS);
  if (values.cluster !== undefined && values.cluster !== 'slurm') throw new UsageError(`inject: --cluster must be slurm, got "${values.cluster}"`);
  if (values.tasks !== undefined && values.cluster === undefined && values.resume === undefined) throw new UsageError('inject: --tasks goes with --cluster slurm');
  const tasks = positiveInt('tasks', values.tasks, 1);
  if (values.resume !== undefined) {
    const others = Object.keys(values).filter((k) => !['resume', 'json', 'tasks', 'cluster'].includes(k));
    if (others.length > 0) throw new UsageError(`inject --resume takes the run's own options; leave out --${others.join(', --')}`);
  }
  // --tasks alone goes with --resume of a cluster run.
  const cluster = values.cluster !== undefined || tasks !== undefined ? { cluster: { tasks } } : {};
  const start: InjectionStart = values.resume !== undefined ? { resume: values.resume, ...cluster } : { request: requestFrom(values), ...cluster };
  const store = await openWorkspace();
  // Resuming a run that has nothing left is harmless (scripts may resume until done), but a person should not take it for new work.
  if (values.resume !== undefined && !values.json && store.get('runs', values.resume)?.status === 'finished') {
    const left = unfinishedWork(store, values.resume);
    if (left.indices.length === 0 && left.recheck.length === 0) process.stderr.write(`run ${values.resume} has nothing left to resume: every rollout ended and every bug was checked; its result follows\n`);
  }
  const interrupt = cancelOnInterrupt('the injection run');
  let result: InjectResult;
  try {
    result = await startInjection(start, { store, signal: interrupt.signal }, lineReporter({ json: values.json }));
  } finally {
    interrupt.dispose();
  }
  if (values.json) printJson(result);
  else {
    const noBug = result.rollouts.filter((r) => r.reason === 'no-bug' && !r.bugId).length;
    const failed = result.rollouts.filter((r) => r.reason === 'error').length;
    const found = noBug > 0 ? `, ${noBug} found no bug` : '';
    const errors = failed > 0 ? `, ${failed} failed` : '';
    process.stdout.write(`run ${result.runId} ${result.status}: ${result.rollouts.length} rollout(s), ${result.bugs.length} submitted, ${result.yield.valid} valid${found}${errors}\n`);
    for (const bug of result.bugs) {
      const of = bug.status === 'duplicate' ? store.get('bugs', bug.id)?.duplicateOf : undefined;
      process.stdout.write(`  ${bug.id}  ${bug.status}${of ? ` of ${of}` : ''}${bug.failedCheck ? `: ${bug.failedCheck}` : ''}\n`);
    }
    // Rollouts that made no bug: found none (a normal outcome, with the agent's reason) apart from those that failed.
    for (const r of result.rollouts) {
      if (r.bugId || r.reason === 'submitted') continue;
      const what = r.reason === 'no-bug' ? 'no bug' : r.reason;
      process.stdout.write(`  ${r.rollout}  ${what}${r.detail ? `: ${r.detail}` : ''}\n`);
    }
    if (values.resume === undefined && store.get('runs', result.runId)?.policy === 'offline') {
      // A copy of a bug an earlier run made comes from the same seed; a copy of one of this run, from a repository with few changes to make.
      const originals = result.bugs.filter((b) => b.status === 'duplicate').map((b) => store.get('bugs', store.get('bugs', b.id)?.duplicateOf ?? '')?.runId);
      const earlier = originals.filter((runId) => runId !== result.runId).length;
      const within = originals.length - earlier;
      if (earlier > 0) {
        const seed = values.seed === undefined ? `the default seed, ${INJECT_DEFAULTS.seed}` : `seed ${values.seed}`;
        process.stdout.write(`${earlier} bug(s) repeat ones of earlier runs: the offline policy makes the same bugs again for the same seed (this run: ${seed}); give another --seed for new ones\n`);
      }
      if (within > 0) {
        process.stdout.write(
          `${within} bug(s) repeat others of this run: its rollouts found few distinct changes to make in this repository; fewer rollouts, or another --strategy, give more distinct bugs\n`,
        );
      }
    }
    if (result.status === 'cancelled') process.stdout.write(`finish it later with \`bugbench inject --resume ${result.runId}\`\n`);
  }
  return interrupt.signal.aborted ? 130 : 0;
}

type Values = ReturnType<typeof parseFlags<typeof FLAGS>>['values'];

/** The run's images: repeated --image, then the lines of --images FILE. */
function imagesFrom(values: Values): string[] {
  let listed: string[] = [];
  if (values.images !== undefined) {
    let text: string;
    try {
      text = readFileSync(values.images, 'utf8');
    } catch (error) {
      throw new UsageError(`inject: cannot read the images file ${values.images} (${(error as NodeJS.ErrnoException).code ?? String(error)}); give a file with one image a line`);
    }
    listed = parseImageList(text, values.images);
  }
  return corpusFrom(values.image ?? [], listed);
}

/** What the flags ask for; what they leave out takes its default in the core (inject-settings.ts). */
function requestFrom(values: Values): InjectRequest {
  const images = imagesFrom(values);
  if (images.length === 0) throw new UsageError('inject: give the repo image with --image TAG (see `bugbench images`)');
  if (!values.strategy) throw new UsageError(`inject: give --strategy, one of ${STRATEGIES.join(', ')}`);
  const params: Partial<CheckParams> = {
    minPassingTests: positiveInt('min-passing', values['min-passing']),
    minChangedFiles: positiveInt('min-changed-files', values['min-changed-files'], 1),
    minFailingTests: positiveInt('min-failing', values['min-failing'], 1),
    testTimeoutSec: positiveInt('timeout', values.timeout, 1),
    buggyRuns: positiveInt('buggy-runs', values['buggy-runs'], 1),
    maxWeakenedTests: positiveInt('max-weakened-tests', values['max-weakened-tests']),
  };
  return withoutUndefined({
    image: images[0]!,
    ...(images.length > 1 ? { images } : {}),
    strategy: values.strategy as InjectStrategy,
    ...policySettings('inject', values),
    n: positiveInt('n', values.n, 1),
    concurrency: positiveInt('concurrency', values.concurrency, 1),
    seed: positiveInt('seed', values.seed),
    params: withoutUndefined(params),
    maxSteps: positiveInt('max-steps', values['max-steps'], 1),
    maxTokens: positiveInt('max-tokens', values['max-tokens'], 1),
    budgetUsd: positiveNumber('budget', values.budget),
    runBudgetUsd: positiveNumber('run-budget', values['run-budget']),
  });
}

/** The object without the keys the user did not give. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export const command: CommandModule = {
  name: 'inject',
  summary: 'run injection rollouts on an image and check what they submit',
  usage: [
    `bugbench inject --image T --strategy ${STRATEGIES.join('|')} [--policy ${POLICY_CHOICES}] [--model M] [--base-url URL] [--api-key KEY]`,
    '  [--price-in USD] [--price-out USD] [-n N] [--concurrency C] [--seed X (default 0)] [--max-steps N] [--max-tokens N] [--budget USD] [--run-budget USD]',
    '  [--min-passing N] [--min-changed-files N] [--min-failing N] [--timeout S] [--buggy-runs N] [--max-weakened-tests N]',
    '  [--cluster slurm [--tasks T]] [--json]',
    'bugbench inject --images FILE (or --image T1 --image T2 …) --strategy S …   (one run over a corpus: rollout i on image (seed + i) mod k)',
    'bugbench inject --resume RUN-ID [--tasks T] [--json]   (finishes an interrupted or cancelled run with its own options, where it ran)',
  ],
  flags: FLAGS,
  run: injectCommand,
};
