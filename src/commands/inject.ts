/**
 * `bugbench inject --image T [--image T2 …] [--images FILE] --strategy S [--policy anthropic|openai|offline] [--model M] [--base-url URL]
 *   [--api-key KEY] [--price-in USD] [--price-out USD] [-n N] [--concurrency C] [--seed X]
 *   [--max-steps N] [--max-tokens N] [--budget USD] [--run-budget USD] [--min-passing N] [--min-changed-files N]
 *   [--min-failing N] [--timeout S] [--buggy-runs N] [--max-weakened-tests N] [--json]`
 * `bugbench inject --resume RUN-ID [--json]` finishes an interrupted or cancelled run with its own options.
 * Several images (repeated --image, or a file of them) make a run over a corpus (pipeline/corpus.ts).
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_CHECK_PARAMS, type CheckParams } from '../bugs/meta.js';
import { UsageError } from '../errors.js';
import { DEFAULT_CONCURRENCY, resumeInjection, runInjection, STRATEGIES, type InjectResult, type InjectSettings, type InjectStrategy } from '../pipeline/inject.js';
import { POLICY_FLAGS, policySettings } from './policy-flags.js';
import { corpusFrom, parseImageList } from '../pipeline/corpus.js';
import { clusterOf, resumeClusterInjection, submitClusterInjection } from '../pipeline/cluster-run.js';
import type { Deps } from '../pipeline/events.js';
import { runResult } from '../pipeline/run-result.js';
import { openWorkspace } from '../pipeline/startup.js';
import { followClusterRun } from './cluster-follow.js';
import { parseFlags, positiveInt, positiveNumber, printJson } from './args.js';
import { cancelOnInterrupt } from './interrupt.js';
import { lineReporter } from './reporter.js';

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
  const store = await openWorkspace();
  const interrupt = cancelOnInterrupt('the injection run');
  const deps: Deps = { store, signal: interrupt.signal };
  const report = lineReporter({ json: values.json });
  let result: InjectResult;
  try {
    if (values.cluster !== undefined && values.cluster !== 'slurm') throw new UsageError(`inject: --cluster must be slurm, got "${values.cluster}"`);
    if (values.tasks !== undefined && values.cluster === undefined && values.resume === undefined) throw new UsageError('inject: --tasks goes with --cluster slurm');
    const tasks = positiveInt('tasks', values.tasks, 1);
    const resumed = values.resume !== undefined ? store.get('runs', values.resume) : undefined;
    if (values.resume !== undefined) {
      const others = Object.keys(values).filter((k) => !['resume', 'json', 'tasks', 'cluster'].includes(k));
      if (others.length > 0) throw new UsageError(`inject --resume takes the run's own options; leave out --${others.join(', --')}`);
    }
    if (resumed && clusterOf(resumed)) {
      // A cluster run goes on as a new job array of what is left.
      const { jobId } = await resumeClusterInjection(store, resumed.id, tasks);
      if (!values.json) process.stderr.write(`run ${resumed.id}: job array ${jobId} on Slurm\n`);
      await followClusterRun(store, resumed.id, { quiet: values.json, signal: interrupt.signal });
      result = runResult(store, resumed.id);
    } else if (values.resume !== undefined) {
      if (values.cluster !== undefined || tasks !== undefined) throw new UsageError(`run ${values.resume} did not run on a cluster; resume it without --cluster and --tasks`);
      result = await resumeInjection(values.resume, deps, report);
    } else if (values.cluster !== undefined) {
      const { runId, jobId } = await submitClusterInjection(settingsFrom(values), tasks ?? 2, { store }, report);
      if (!values.json) process.stderr.write(`run ${runId}: job array ${jobId} of ${Math.min(tasks ?? 2, positiveInt('n', values.n, 1) ?? 1)} task(s) on Slurm (follow it from anywhere with \`bugbench replay ${runId}\`)\n`);
      await followClusterRun(store, runId, { quiet: values.json, signal: interrupt.signal });
      result = runResult(store, runId);
    } else result = await runInjection(settingsFrom(values), deps, report);
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
    for (const bug of result.bugs) process.stdout.write(`  ${bug.id}  ${bug.status}${bug.failedCheck ? `: ${bug.failedCheck}` : ''}\n`);
    // Rollouts that made no bug: found none (a normal outcome, with the agent's reason) apart from those that failed.
    for (const r of result.rollouts) {
      if (r.bugId || r.reason === 'submitted') continue;
      const what = r.reason === 'no-bug' ? 'no bug' : r.reason;
      process.stdout.write(`  ${r.rollout}  ${what}${r.detail ? `: ${r.detail}` : ''}\n`);
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

function settingsFrom(values: Values): InjectSettings {
  const images = imagesFrom(values);
  if (images.length === 0) throw new UsageError('inject: give the repo image with --image TAG (see `bugbench images`)');
  if (!values.strategy) throw new UsageError(`inject: give --strategy, one of ${STRATEGIES.join(', ')}`);
  const params: CheckParams = {
    minPassingTests: positiveInt('min-passing', values['min-passing']) ?? DEFAULT_CHECK_PARAMS.minPassingTests,
    minChangedFiles: positiveInt('min-changed-files', values['min-changed-files'], 1) ?? DEFAULT_CHECK_PARAMS.minChangedFiles,
    minFailingTests: positiveInt('min-failing', values['min-failing'], 1) ?? DEFAULT_CHECK_PARAMS.minFailingTests,
    testTimeoutSec: positiveInt('timeout', values.timeout, 1) ?? DEFAULT_CHECK_PARAMS.testTimeoutSec,
    buggyRuns: positiveInt('buggy-runs', values['buggy-runs'], 1) ?? DEFAULT_CHECK_PARAMS.buggyRuns,
  };
  const maxWeakened = positiveInt('max-weakened-tests', values['max-weakened-tests']);
  if (maxWeakened !== undefined) params.maxWeakenedTests = maxWeakened;
  return {
    image: images[0]!,
    ...(images.length > 1 ? { images } : {}),
    strategy: values.strategy as InjectStrategy,
    ...policySettings('inject', values),
    n: positiveInt('n', values.n, 1) ?? 1,
    concurrency: positiveInt('concurrency', values.concurrency, 1) ?? DEFAULT_CONCURRENCY,
    seed: positiveInt('seed', values.seed) ?? 0,
    params,
    maxSteps: positiveInt('max-steps', values['max-steps'], 1) ?? 100,
    maxTokens: positiveInt('max-tokens', values['max-tokens'], 1),
    budgetUsd: positiveNumber('budget', values.budget),
    runBudgetUsd: positiveNumber('run-budget', values['run-budget']),
  };
}
