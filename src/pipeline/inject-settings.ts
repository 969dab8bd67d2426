/**
 * What an injection run is, as plain data kept in its record, and the one
 * place its defaults are applied: a front end (the CLI's flags, the
 * workbench's form) passes what the user chose and nothing else.
 */
import { defaultPolicy, type ModelSettings } from '../agent/policies.js';
import { DEFAULT_CHECK_PARAMS, type CheckParams } from '../bugs/meta.js';
import type { InjectStrategy } from './injectors.js';
import type { PolicyName } from './policy.js';

/** What a run is: plain data, kept in its record as it is, so a resume runs the rest the same way. */
export interface InjectSettings extends ModelSettings {
  /** The run's image; with several, the first (corpus.ts). */
  image: string;
  /** A run over a corpus: every image, its rollouts dealt round-robin over them from the seed. */
  images?: string[];
  strategy: InjectStrategy;
  policy: PolicyName;
  model?: string;
  n: number;
  concurrency: number;
  seed: number;
  params: CheckParams;
  maxSteps: number;
  maxTokens?: number;
  /** Dollars one rollout may spend (anthropic). */
  budgetUsd?: number;
  /** Dollars the whole run may spend (anthropic). */
  runBudgetUsd?: number;
  /** Containers one bug's checks may use at once. */
  checkParallelism?: number;
}

/** Every default of a run, and the number of Slurm tasks a cluster run gets. */
export const INJECT_DEFAULTS = {
  n: 1,
  /** Rollouts at work at once. */
  concurrency: 2,
  seed: 0,
  maxSteps: 100,
  params: DEFAULT_CHECK_PARAMS,
  /** Tasks of a cluster run's job array. */
  tasks: 2,
} as const;

/** Rollouts at work at once when the settings do not say. */
export const DEFAULT_CONCURRENCY = INJECT_DEFAULTS.concurrency;

/** What a front end asks for: the image(s) and the strategy; anything left out takes its default. */
export type InjectRequest = Pick<InjectSettings, 'image' | 'strategy'> & Partial<Omit<InjectSettings, 'image' | 'strategy' | 'params'>> & { params?: Partial<CheckParams> };

/** The run's settings: the request with every default applied (the policy: what this machine is set up for). */
export function injectSettings(request: InjectRequest): InjectSettings {
  const settings: InjectSettings = {
    ...request,
    policy: request.policy ?? defaultPolicy(),
    n: request.n ?? INJECT_DEFAULTS.n,
    concurrency: request.concurrency ?? INJECT_DEFAULTS.concurrency,
    seed: request.seed ?? INJECT_DEFAULTS.seed,
    maxSteps: request.maxSteps ?? INJECT_DEFAULTS.maxSteps,
    params: { ...INJECT_DEFAULTS.params, ...request.params },
  };
  // Plain data: an option not given is not kept as `undefined`.
  return JSON.parse(JSON.stringify(settings)) as InjectSettings;
}

/** The rollouts a run has at work at once: what was asked, never more than its bugs (1 bug with 2 at a time runs 1). */
export function runConcurrency(settings: Pick<InjectSettings, 'n' | 'concurrency'>): number {
  return Math.max(1, Math.min(settings.n, settings.concurrency));
}
