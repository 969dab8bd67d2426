/**
 * `bugbench solve <bug-id> [-k K] [--policy anthropic|openai|offline] [--model M] [--base-url URL] [--api-key KEY]
 *   [--price-in USD] [--price-out USD] [--solver oracle|partial|noop|mix] [--statement template|report] [--alpha A]
 *   [--concurrency C] [--seed X] [--max-steps N] [--max-tokens N] [--budget USD] [--run-budget USD]
 *   [--cluster slurm [--tasks T]] [--json]`
 */
import { SOLVER_CHOICES, type SolverChoice } from '../agent/offline/solver.js';
import { UsageError } from '../errors.js';
import { POLICY_CHOICES, POLICY_FLAGS, policySettings } from './policy-flags.js';
import { submitClusterSolve } from '../pipeline/cluster-run.js';
import { DEFAULT_SOLVE, solveBug, summarizeSolve, type SolveResult, type SolveSettings, type StatementKind } from '../pipeline/solve.js';
import { openWorkspace } from '../pipeline/startup.js';
import { parseFlags, positiveInt, positiveNumber, printJson } from './args.js';
import { cancelOnInterrupt } from './interrupt.js';
import { followClusterRun } from '../pipeline/cluster-follow.js';
import { lineReporter } from './reporter.js';
import { solveJson, solveLines } from './solve-output.js';
import type { CommandModule } from './command.js';

function oneOf<T extends string>(flag: string, value: string | undefined, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${choices.join(', ')}, got "${value}"`);
  return value as T;
}

const FLAGS = {
  k: { type: 'string', short: 'k' },
  ...POLICY_FLAGS,
  solver: { type: 'string' },
  statement: { type: 'string' },
  alpha: { type: 'string' },
  concurrency: { type: 'string' },
  seed: { type: 'string' },
  'max-steps': { type: 'string' },
  'max-tokens': { type: 'string' },
  budget: { type: 'string' },
  'run-budget': { type: 'string' },
  cluster: { type: 'string' },
  tasks: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export async function solveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'solve',
    args,
    FLAGS,
    1,
  );
  const bugId = positionals[0];
  if (!bugId) throw new UsageError('solve: give a bug id (see `bugbench bugs --status valid`)');
  const alpha = values.alpha === undefined ? DEFAULT_SOLVE.alpha : Number(values.alpha);
  if (!(alpha >= 0 && alpha <= 1)) throw new UsageError(`--alpha must be between 0 and 1, got "${values.alpha}"`);
  const store = await openWorkspace();
  const interrupt = cancelOnInterrupt('the solver attempts');
  const settings: SolveSettings = {
    bugId,
    k: positiveInt('k', values.k, 1) ?? DEFAULT_SOLVE.k,
    concurrency: positiveInt('concurrency', values.concurrency, 1) ?? DEFAULT_SOLVE.concurrency,
    ...policySettings('solve', values),
    solver: oneOf<SolverChoice>('solver', values.solver, SOLVER_CHOICES, DEFAULT_SOLVE.solver),
    statement: values.statement === undefined ? undefined : oneOf<StatementKind>('statement', values.statement, ['template', 'report'], 'template'),
    alpha,
    seed: positiveInt('seed', values.seed) ?? DEFAULT_SOLVE.seed,
    maxSteps: positiveInt('max-steps', values['max-steps'], 1) ?? DEFAULT_SOLVE.maxSteps,
    maxTokens: positiveInt('max-tokens', values['max-tokens'], 1),
    budgetUsd: positiveNumber('budget', values.budget),
    runBudgetUsd: positiveNumber('run-budget', values['run-budget']),
  };
  if (values.cluster !== undefined && values.cluster !== 'slurm') throw new UsageError(`solve: --cluster must be slurm, got "${values.cluster}"`);
  const tasks = positiveInt('tasks', values.tasks, 1);
  if (tasks !== undefined && values.cluster === undefined) throw new UsageError('solve: --tasks goes with --cluster slurm');
  const report = lineReporter({ json: values.json, toolCalls: false });
  let result: SolveResult;
  try {
    if (values.cluster !== undefined) {
      const { runId, jobId } = await submitClusterSolve({ settings, tasks: tasks ?? 2 }, { store });
      report({ type: 'cluster', event: { type: 'submitted', runId, jobId, tasks: Math.min(tasks ?? 2, settings.k), resumed: false } });
      await followClusterRun(runId, { store, signal: interrupt.signal }, report);
      result = summarizeSolve(store, runId);
    } else {
      result = await solveBug(settings, { store, signal: interrupt.signal }, report);
    }
  } finally {
    interrupt.dispose();
  }
  const ending = interrupt.signal.aborted ? 'cancelled' : 'finished';
  if (values.json) printJson(solveJson(result, ending));
  else process.stdout.write(`${solveLines(result, ending).join('\n')}\n`);
  return interrupt.signal.aborted ? 130 : 0;
}

export const command: CommandModule = {
  name: 'solve',
  summary: 'run solver attempts on a bug: solve rate and rewards',
  usage: [
    `bugbench solve <bug-id> [-k K] [--policy ${POLICY_CHOICES}] [--model M] [--base-url URL] [--api-key KEY] [--price-in USD] [--price-out USD]`,
    '  [--solver oracle|partial|noop|mix] [--statement template|report] [--alpha A] [--concurrency C] [--seed X]',
    '  [--max-steps N] [--max-tokens N] [--budget USD] [--run-budget USD] [--cluster slurm [--tasks T]] [--json]',
  ],
  flags: FLAGS,
  run: solveCommand,
};
