/**
 * The injection strategies: which prompt each rollout gets, which model plays
 * the injector, and what its `submit` takes. `removal+history` draws, per
 * rollout and from the run's seed, between the removal and the history
 * prompts (Self-play SWE-RL's best injector, section 4.3). `featadd` asks for a
 * working feature and hands in only how it ran the tests; bugbench finds the
 * bug afterwards (BugPilot's FeatAdd).
 */
import { artifactSubmitHandler } from '../agent/artifact-submit.js';
import { FEATURE_SUBMIT, featureSubmitHandler } from '../agent/feature-submit.js';
import type { ToolDefinition } from '../agent/messages.js';
import type { Model } from '../agent/model.js';
import { offlineInjector, type OfflineStrategy } from '../agent/offline/injector.js';
import { OfflineModel } from '../agent/offline/offline-model.js';
import { policyModel, policyModelName, type ModelSettings } from '../agent/policies.js';
import { Rng, rolloutSeed } from '../agent/offline/rng.js';
import { INJECTOR_SUBMIT, type SubmitHandler } from '../agent/tools.js';
import type { CheckParams } from '../bugs/meta.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export const STRATEGIES = ['removal', 'history', 'removal+history', 'direct', 'featadd', 'buginstruct'] as const;
export type InjectStrategy = (typeof STRATEGIES)[number];

/** The prompt one rollout gets: a strategy's own, or for removal+history the one drawn for it. */
export type InjectPrompt = Exclude<InjectStrategy, 'removal+history'>;

/** Strategies that ask an agent to write something (a feature, a deliberate bug): the offline policy cannot. */
export const MODEL_STRATEGIES: readonly InjectStrategy[] = ['featadd', 'buginstruct'];

export function needsModel(strategy: InjectStrategy): boolean {
  return MODEL_STRATEGIES.includes(strategy);
}

/** The prompt of rollout `index`; removal+history draws it from the run's seed (and the draw alone: other choices do not shift it). */
export function promptOf(strategy: InjectStrategy, seed: number, index: number): InjectPrompt {
  if (strategy !== 'removal+history') return strategy;
  return new Rng(rolloutSeed(seed ^ 0x5bd1e995, index)).next() < 0.5 ? 'removal' : 'history';
}

export interface InjectorSettings extends ModelSettings {
  strategy: InjectStrategy;
  seed: number;
  params: CheckParams;
}

export function modelName(settings: InjectorSettings): string {
  return policyModelName(settings, `offline/${settings.strategy}`);
}

export function injectorModel(settings: InjectorSettings, index: number, prompt: InjectPrompt): Model {
  return policyModel(settings) ?? new OfflineModel(
    `offline/${prompt}`,
    offlineInjector({
      strategy: prompt as OfflineStrategy,
      rng: new Rng(rolloutSeed(settings.seed, index)),
      minPassingTests: settings.params.minPassingTests,
      minChangedFiles: settings.params.minChangedFiles,
      minFailingTests: settings.params.minFailingTests,
      testTimeoutSec: settings.params.testTimeoutSec,
    }),
    { closing: 'no-bug' },
  );
}

/** The submit tool of a prompt, for a rollout's container; its artifact goes to `staging`. */
export function injectorSubmit(sandbox: Sandbox, into: { prompt: InjectPrompt; staging: string; baseCommit: string }): { definition: ToolDefinition; handle: SubmitHandler } {
  const { prompt, staging, baseCommit } = into;
  if (prompt === 'featadd') return { definition: FEATURE_SUBMIT, handle: featureSubmitHandler(sandbox, staging, baseCommit) };
  return { definition: INJECTOR_SUBMIT, handle: artifactSubmitHandler(sandbox, staging) };
}
