/**
 * `bugbench inject --image T --strategy S [--policy P] [--model M] [-n N] [--concurrency C] [--seed X]
 *   [--max-steps N] [--max-tokens N] [--budget USD] [--run-budget USD] [--min-passing N] [--min-changed-files N]
 *   [--min-failing N] [--timeout S] [--json]`
 */
import { DEFAULT_CHECK_PARAMS, type CheckParams } from '../bugs/meta.js';
import { UsageError } from '../errors.js';
import { defaultPolicy, runInjection, STRATEGIES, type InjectStrategy, type PolicyName } from '../pipeline/inject.js';
import { reapOrphans } from '../sandbox/orphans.js';
import { parseFlags, printJson } from './args.js';
import { positiveInt } from './check.js';
import { cancelOnInterrupt } from './interrupt.js';
import { rolloutLine } from './rollout-lines.js';

function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n > 0)) throw new UsageError(`--${flag} must be a positive number, got "${value}"`);
  return n;
}

export async function injectCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('inject', args, {
    image: { type: 'string' },
    strategy: { type: 'string' },
    policy: { type: 'string' },
    model: { type: 'string' },
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
    json: { type: 'boolean', default: false },
  });
  if (!values.image) throw new UsageError('inject: give the repo image with --image TAG (see `bugbench images`)');
  if (!values.strategy) throw new UsageError(`inject: give --strategy, one of ${STRATEGIES.join(', ')}`);
  const policy = (values.policy ?? defaultPolicy()) as PolicyName;
  if (policy !== 'anthropic' && policy !== 'offline') throw new UsageError(`inject: --policy must be anthropic or offline, got "${policy}"`);
  const params: CheckParams = {
    minPassingTests: positiveInt('min-passing', values['min-passing']) ?? DEFAULT_CHECK_PARAMS.minPassingTests,
    minChangedFiles: positiveInt('min-changed-files', values['min-changed-files'], 1) ?? DEFAULT_CHECK_PARAMS.minChangedFiles,
    minFailingTests: positiveInt('min-failing', values['min-failing'], 1) ?? DEFAULT_CHECK_PARAMS.minFailingTests,
    testTimeoutSec: positiveInt('timeout', values.timeout, 1) ?? DEFAULT_CHECK_PARAMS.testTimeoutSec,
  };
  const n = positiveInt('n', values.n, 1) ?? 1;
  const concurrency = positiveInt('concurrency', values.concurrency, 1) ?? 2;
  const seed = positiveInt('seed', values.seed) ?? 0;
  const maxSteps = positiveInt('max-steps', values['max-steps'], 1) ?? 100;
  await reapOrphans();

  const interrupt = cancelOnInterrupt('the injection run');
  const tags = new Map<string, string>();
  const tagOf = (rolloutId: string) => tags.get(rolloutId) ?? rolloutId.replace(/^.*-(r\d+)$/, '$1');
  const result = await runInjection({
    signal: interrupt.signal,
    image: values.image,
    strategy: values.strategy as InjectStrategy,
    policy,
    model: values.model,
    n,
    concurrency,
    seed,
    params,
    maxSteps,
    maxTokens: positiveInt('max-tokens', values['max-tokens'], 1),
    budgetUsd: positiveNumber('budget', values.budget),
    runBudgetUsd: positiveNumber('run-budget', values['run-budget']),
    onEvent: values.json
      ? undefined
      : (rolloutId, event) => {
          const line = rolloutLine(tagOf(rolloutId), event);
          if (line) process.stderr.write(`${line}\n`);
        },
    onCheckEvent: values.json
      ? undefined
      : (rolloutId, event) => {
          if (event.type === 'check-finished' && event.result.verdict !== 'skipped') {
            process.stderr.write(`[${tagOf(rolloutId)}] check ${event.result.name}: ${event.result.verdict} — ${event.result.reason.slice(0, 140)}\n`);
          }
        },
    onBug: values.json
      ? undefined
      : (bug) => process.stderr.write(`[${tagOf(bug.rollout)}] bug ${bug.id}: ${bug.valid ? 'VALID' : `INVALID (${bug.failedCheck})`}\n`),
  }).finally(interrupt.dispose);
  if (values.json) printJson({ runId: result.runId, bugs: result.bugs, rollouts: result.rollouts });
  else {
    const valid = result.bugs.filter((b) => b.valid).length;
    process.stdout.write(`run ${result.runId}: ${result.rollouts.length} rollout(s), ${result.bugs.length} submitted, ${valid} valid\n`);
    for (const bug of result.bugs) process.stdout.write(`  ${bug.id}  ${bug.valid ? 'valid' : `invalid: ${bug.failedCheck}`}\n`);
  }
  return interrupt.signal.aborted ? 130 : 0;
}
