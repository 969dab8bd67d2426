/**
 * The two steps of an injection run's work, each on a placement of the run's
 * engines (the placement confirms each step): an injector rollout whose
 * submitted artifact becomes a bug, and the bug's checks (with BugPilot's
 * analysis of a valid one).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Budget } from '../agent/budget.js';
import { identityOf } from '../agent/policies.js';
import { rolloutSeed } from '../agent/offline/rng.js';
import { injectionPrompts } from '../agent/prompts.js';
import { DEFAULT_TOOL_OPTIONS } from '../agent/tools.js';
import { errorMessage } from '../errors.js';
import { analyseBug } from './analysis.js';
import { checkStoredBug } from './bug-checks.js';
import { imageOfRollout } from './corpus.js';
import { findFeatureBug } from './feature-bug.js';
import type { InjectSettings } from './inject-settings.js';
import { injectorModel, injectorSubmit, modelName, promptOf } from './injectors.js';
import { addBug } from './new-bug.js';
import { runRollout } from './rollout.js';
import type { RunPlacement as Placement } from './run-engines.js';
import { runDir } from './run-orchestrator.js';
import { injectedBug } from './run-result.js';
import type { RunScope } from './run-scope.js';

export interface ImageFacts {
  baseCommit: string;
  imageId: string;
  repo: string;
  /** Where the repository is in the image (/repo in bugbench's own, /testbed in SWE-bench's, …). */
  root: string;
  /** The image's test command (its label, or what its adoption found or was told with --test-cmd); '' when none. */
  testCommand?: string;
}

/** Each image's facts, by tag. */
export type CorpusFacts = Map<string, ImageFacts>;

/** An injection run's scope: its images' facts with it. */
export type InjectScope = RunScope<InjectSettings> & { facts: CorpusFacts };

/** A bug's checks, placed like a rollout; a verdict from an engine that was lost is replaced by the next try's. */
export function checkBug(scope: InjectScope, target: { bugId: string; rolloutId: string }): Promise<void> {
  return scope.place(`${target.rolloutId}-check`, (placement) => checkOn(scope, placement, target));
}

/** A bug's checks on one placement; a valid bug then gets BugPilot's analysis from the run's own policy (`bugbench analyse` redoes a failed one). */
async function checkOn(scope: InjectScope, placement: Placement, target: { bugId: string; rolloutId: string }): Promise<void> {
  const { store, settings, report } = scope;
  const { bugId, rolloutId } = target;
  const { bug } = await placement.step(() =>
    checkStoredBug(
      { bugId, parallelism: settings.checkParallelism ?? 2, runId: `${rolloutId}-check` },
      { store, engine: placement.port, signal: placement.signal },
      (event) => (event.type === 'check' ? report({ ...event, subject: rolloutId }) : report(event)),
    ),
  );
  let analysisError: string | undefined;
  if (bug.check?.valid) await analyseBug({ store, id: bug.id }, settings, { signal: scope.signal, budget: scope.budget }).catch((error: unknown) => (analysisError = errorMessage(error)));
  report({ type: 'bug', bug: { ...injectedBug(store, store.get('bugs', bug.id) ?? bug), ...(analysisError ? { analysisError } : {}) } });
}

/** One injector rollout (by index) on its image; a submitted artifact becomes a bug record (status `checking`). Returns its id. */
export async function injectionRollout(scope: InjectScope, placement: Placement, index: number): Promise<string | undefined> {
  const { store, settings, id: runId } = scope;
  const tag = imageOfRollout(settings, index);
  const facts = scope.facts.get(tag)!;
  const rolloutId = `${runId}-r${index + 1}`;
  const staging = join(runDir(store, runId), `${rolloutId}-artifact`);
  rmSync(staging, { recursive: true, force: true });
  const prompt = promptOf(settings.strategy, settings.seed, index);
  const prompts = injectionPrompts(prompt, { repoRoot: facts.root, testCommand: facts.testCommand, ...settings.params });
  // A rollout whose engine went away ends here; the pool runs it again elsewhere.
  const outcome = await placement.step(async () => {
    const ended = await runRollout({
      store,
      id: rolloutId,
      runId,
      role: 'injector',
      strategy: settings.strategy,
      policy: settings.policy,
      image: tag,
      model: injectorModel(settings, index, prompt),
      system: prompts.system,
      task: prompts.task,
      maxSteps: settings.maxSteps,
      budget: new Budget(settings.budgetUsd),
      runBudget: scope.budget,
      submit: (sandbox) => injectorSubmit(sandbox, { prompt, staging, baseCommit: facts.baseCommit }),
      // The cap protects a model's context; the scripted offline agent reads whole outputs (file lists of big repos).
      maxOutputChars: settings.policy === 'offline' ? 4 * 1024 * 1024 : DEFAULT_TOOL_OPTIONS.maxOutputChars,
      signal: placement.signal,
      report: (event) => scope.report({ type: 'rollout', rolloutId, event }),
      engine: placement.port,
      where: { ...scope.where, engine: placement.engine.name },
    });
    scope.cleanup(ended.cleanup);
    return ended;
  }, (ended) => ended.failure);
  if (outcome.reason !== 'submitted' || !existsSync(staging)) {
    rmSync(staging, { recursive: true, force: true });
    return undefined;
  }
  if (prompt === 'featadd') {
    // A feature is a bug only if the tests, run now, show that it broke something.
    const found = await placement.step(() => findFeatureBug(staging, { image: tag, baseCommit: facts.baseCommit, params: settings.params, runId: `${rolloutId}-feature`, signal: placement.signal, engine: placement.port }));
    if (found.kind !== 'broke') {
      const detail = found.kind === 'no-bug' ? `no bug: the feature kept every test passing (${found.passed})` : `no bug: ${found.reason}`;
      store.transact((tx) => tx.patch('rollouts', rolloutId, { status: found.kind === 'no-bug' ? 'no-bug' : 'error', detail }));
      rmSync(staging, { recursive: true, force: true });
      return undefined;
    }
    store.transact((tx) => tx.patch('rollouts', rolloutId, { detail: `the feature broke ${found.broken.length} test(s)` }));
  }
  const bug = addBug(store, staging, {
    image: tag,
    imageId: facts.imageId,
    repo: facts.repo,
    baseCommit: facts.baseCommit,
    strategy: settings.strategy,
    policy: settings.policy,
    model: modelName(settings),
    order: 1,
    parentId: null,
    attemptId: null,
    runId,
    rollout: rolloutId,
    trajectory: outcome.trajectory,
    params: settings.params,
    extraMeta: { prompt, seed: settings.policy === 'offline' ? rolloutSeed(settings.seed, index) : null, baseUrl: identityOf(settings, '').baseUrl },
  });
  scope.report({ type: 'bug-added', bug });
  return bug.id;
}
