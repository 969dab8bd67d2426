/**
 * An injection run: N rollouts (C at a time) of an injector in fresh
 * containers of one image. The run and each rollout are records in the
 * workspace store from the start; a submitted artifact becomes a bug (moved
 * into `bugs/<id>/` whole, then recorded) and is judged by the nine checks.
 * A run a dead process left behind is `interrupted`; `resumeInjection`
 * finishes it with its own options: rollouts that never finished run again
 * (same index, same seed) and bugs whose checks were cancelled are checked.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { Budget } from '../agent/budget.js';
import type { RolloutEvent, RolloutWhere } from '../agent/events.js';
import { identityOf, verifyPolicy, type ModelSettings } from '../agent/policies.js';
import { rolloutSeed } from '../agent/offline/rng.js';
import { injectionPrompts } from '../agent/prompts.js';
import { DEFAULT_TOOL_OPTIONS } from '../agent/tools.js';
import type { CheckEvent } from '../bugs/check-types.js';
import type { CheckParams } from '../bugs/meta.js';
import { BugbenchError, errorMessage, UsageError } from '../errors.js';
import { currentProcess, processAlive } from '../process-identity.js';
import { dockerClient } from '../sandbox/docker.js';
import { inspectRepoImage } from '../sandbox/repo-image.js';
import type { RolloutRecord, RunRecord } from '../store/records.js';
import { openStore, RecordNotFoundError, type Store } from '../store/store.js';
import { checkStoredBug } from './bug-checks.js';
import { findFeatureBug } from './feature-bug.js';
import { injectorModel, injectorSubmit, modelName, needsModel, promptOf, STRATEGIES, type InjectStrategy } from './injectors.js';
import { addBug } from './new-bug.js';
import { analyseBug } from './analysis.js';
import type { Placement } from './placement.js';
import { forEachConcurrently } from './pool.js';
import type { PolicyName } from './policy.js';
import { runRollout } from './rollout.js';
import { openRunEngines, type RunEngineEvent } from './run-engines.js';
import { injectedBug, runResult } from './run-result.js';

export { STRATEGIES, type InjectStrategy } from './injectors.js';
export { defaultPolicy, type PolicyName } from './policy.js';
export { runResult } from './run-result.js';

/** What a run is: kept in its record, so `--resume` runs the rest the same way. */
export interface InjectSettings extends ModelSettings {
  image: string;
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

/** How a caller follows a run. */
export interface InjectHooks {
  onEvent?: (rolloutId: string, event: RolloutEvent) => void;
  onCheckEvent?: (rolloutId: string, event: CheckEvent) => void;
  onBug?: (bug: InjectedBug) => void;
  /** Called with the run id once the run is recorded, before any rollout starts. */
  onRun?: (runId: string) => void;
  /** The run's engines: images copied onto them, work placed, engines lost and back. */
  onEngineEvent?: (event: RunEngineEvent) => void;
  signal?: AbortSignal;
  /** Where this process runs (a cluster task and its node), recorded with each rollout. */
  where?: RolloutWhere;
  /** One engine for the whole run instead of the configured ones. */
  docker?: Docker;
  store?: Store;
}

export type InjectOptions = InjectSettings & InjectHooks;

export interface InjectedBug {
  /** Why BugPilot's analysis of a valid bug failed (the bug stays valid; `bugbench analyse` redoes it). */
  analysisError?: string;
  id: string;
  rollout: string;
  valid: boolean;
  status: string;
  failedCheck: string | null;
  artifactDir: string;
  trajectory: string;
}

export interface RolloutSummary {
  rollout: string;
  reason: string;
  steps: number;
  costUsd: number;
  durationMs: number;
  trajectory: string;
  bugId: string | null;
  detail?: string;
}

/** What a run yielded: rollouts, submissions, features that broke something (FeatAdd), valid bugs. */
export interface InjectYield {
  rollouts: number;
  submitted: number;
  featuresThatBroke: number | null;
  valid: number;
}

export interface InjectResult {
  runId: string;
  status: RunRecord['status'];
  bugs: InjectedBug[];
  rollouts: RolloutSummary[];
  yield: InjectYield;
}

export function runDir(store: Store, runId: string): string {
  return store.abs(join('runs', runId));
}

function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `run-${stamp}-${randomUUID().slice(0, 4)}`;
}

export interface ImageFacts {
  baseCommit: string;
  imageId: string;
  repo: string;
}

/** Everything that can be wrong with the settings, found before any container starts. */
async function prepare(settings: InjectSettings, docker: Docker): Promise<ImageFacts> {
  if (!STRATEGIES.includes(settings.strategy)) {
    throw new UsageError(`unknown strategy "${settings.strategy}"; use one of ${STRATEGIES.join(', ')}`);
  }
  if (settings.policy === 'offline' && needsModel(settings.strategy)) {
    throw new UsageError(
      `the ${settings.strategy} strategy needs a model: it asks an agent to write a feature or a deliberate bug, which the offline policy cannot do; use --policy anthropic with ANTHROPIC_API_KEY set, or --policy openai with --base-url and --model`,
    );
  }
  if (!Number.isInteger(settings.n) || settings.n < 1) throw new UsageError('-n must be a positive integer');
  if (!Number.isInteger(settings.concurrency) || settings.concurrency < 1) throw new UsageError('--concurrency must be a positive integer');
  const image = await inspectRepoImage(docker, settings.image);
  if (!image.commit) throw new UsageError(`image ${settings.image} has no bugbench.commit label; build it with \`bugbench images build\``);
  await verifyPolicy(settings);
  return { baseCommit: image.commit, imageId: image.imageId, repo: image.repo };
}

/** The settings as the run record keeps them (no functions, no undefined, never a key). */
function storedSettings(settings: InjectSettings): Record<string, unknown> {
  const { image, strategy, policy, model, baseUrl, priceIn, priceOut, n, concurrency, seed, params, maxSteps, maxTokens, budgetUsd, runBudgetUsd, checkParallelism } = settings;
  return JSON.parse(JSON.stringify({ image, strategy, policy, model, baseUrl, priceIn, priceOut, n, concurrency, seed, params, maxSteps, maxTokens, budgetUsd, runBudgetUsd, checkParallelism }));
}

export async function runInjection(options: InjectOptions): Promise<InjectResult> {
  const { store, runId, facts } = await createInjectionRun(options);
  options.onRun?.(runId);
  return executeRun(store, runId, options, facts, [...Array(options.n).keys()], []);
}

/** Checks the settings and records the run with its rollouts (pending); `cluster` marks a run made by a job array. */
export async function createInjectionRun(options: InjectOptions, cluster?: RunRecord['cluster']): Promise<{ store: Store; runId: string; facts: ImageFacts }> {
  const store = options.store ?? openStore();
  const facts = await prepare(options, options.docker ?? dockerClient());
  const runId = newRunId();
  const now = new Date().toISOString();
  mkdirSync(runDir(store, runId), { recursive: true });
  store.transact((tx) => {
    tx.put('runs', {
      id: runId,
      kind: 'inject',
      status: 'running',
      image: options.image,
      strategy: options.strategy,
      policy: options.policy,
      model: modelName(options),
      baseUrl: identityOf(options, '').baseUrl,
      n: options.n,
      options: storedSettings(options),
      owner: currentProcess(),
      startedAt: now,
      finishedAt: null,
      error: null,
      ...(cluster ? { cluster } : {}),
    });
    for (let index = 0; index < options.n; index++) {
      const id = `${runId}-r${index + 1}`;
      tx.put('rollouts', {
        id,
        runId,
        role: 'injector',
        index,
        status: 'pending',
        steps: 0,
        costUsd: 0,
        tokens: 0,
        durationMs: 0,
        trajectory: join('runs', runId, `${id}.jsonl`),
        bugId: null,
        detail: null,
        startedAt: null,
        finishedAt: null,
      });
    }
    const seen = tx.get('images', options.image);
    tx.put('images', { id: options.image, imageId: facts.imageId, repo: facts.repo, commit: facts.baseCommit, firstSeen: seen?.firstSeen ?? now, lastUsed: now });
  });
  return { store, runId, facts };
}

export class RunNotResumableError extends BugbenchError {
  constructor(message: string) {
    super('BB_RUN_NOT_RESUMABLE', message);
  }
}

/** Rollouts that ended without a result the run can use: never started, cut off, or cancelled. */
export const UNFINISHED: readonly RolloutRecord['status'][] = ['pending', 'running', 'interrupted', 'cancelled'];

/** Finishes a run that was interrupted or cancelled, with its own settings. */
export async function resumeInjection(runId: string, hooks: InjectHooks = {}): Promise<InjectResult> {
  const store = hooks.store ?? openStore();
  const run = store.get('runs', runId);
  if (!run || run.kind !== 'inject') throw new RecordNotFoundError('runs', runId);
  if (run.status === 'running' && processAlive(run.owner)) {
    throw new RunNotResumableError(`run ${runId} is still running (process ${run.owner.pid} on ${run.owner.host})`);
  }
  const settings = { ...(run.options as unknown as InjectSettings) };
  const options: InjectOptions = { ...settings, ...hooks, store };
  const facts = await prepare(options, hooks.docker ?? dockerClient());
  const { indices: again, recheck } = unfinishedWork(store, runId);
  store.transact((tx) => tx.patch('runs', runId, { status: 'running', owner: currentProcess(), finishedAt: null, error: null }));
  hooks.onRun?.(runId);
  return executeRun(store, runId, options, facts, again, recheck);
}

/** What a resume has to do: rollouts that never finished, and bugs whose checks were cut off. */
export function unfinishedWork(store: Store, runId: string): { indices: number[]; recheck: string[] } {
  const indices = store.all('rollouts').filter((r) => r.runId === runId && UNFINISHED.includes(r.status) && !r.bugId).map((r) => r.index);
  const recheck = store.all('bugs').filter((b) => b.runId === runId && (b.status === 'cancelled' || b.status === 'checking')).map((b) => b.id);
  return { indices, recheck };
}

/** One cluster task's share of a recorded run, with this node's engine(s); the run's status is left to whoever follows the job array. */
export async function runInjectionShare(runId: string, share: { indices: number[]; recheck: string[] }, hooks: InjectHooks = {}): Promise<void> {
  const store = hooks.store ?? openStore();
  const run = store.get('runs', runId);
  if (!run || run.kind !== 'inject') throw new RecordNotFoundError('runs', runId);
  const options: InjectOptions = { ...(run.options as unknown as InjectSettings), ...hooks, store };
  const facts = await prepare(options, hooks.docker ?? dockerClient());
  await runShare(store, runId, options, facts, share.indices, share.recheck);
}

async function executeRun(store: Store, runId: string, options: InjectOptions, facts: ImageFacts, indices: number[], recheck: string[]): Promise<InjectResult> {
  try {
    await runShare(store, runId, options, facts, indices, recheck);
  } catch (error) {
    store.transact((tx) => tx.patch('runs', runId, { status: 'failed', finishedAt: new Date().toISOString(), error: String(error) }));
    throw error;
  }
  const status = options.signal?.aborted ? 'cancelled' : 'finished';
  store.transact((tx) => tx.patch('runs', runId, { status, finishedAt: new Date().toISOString() }));
  return runResult(store, runId);
}

/** Runs rollouts (by index) and checks bugs again, each placed on the run's engines; returns once their containers are gone. */
async function runShare(store: Store, runId: string, options: InjectOptions, facts: ImageFacts, indices: number[], recheck: string[]): Promise<void> {
  const runBudget = new Budget(options.runBudgetUsd);
  // Rollout containers are removed while the run goes on; the run ends once they are gone.
  const cleanups: Promise<void>[] = [];
  runBudget.add(store.all('rollouts').reduce((sum, r) => (r.runId === runId ? sum + r.costUsd : sum), 0));
  runBudget.add(store.all('bugs').reduce((sum, b) => (b.runId === runId && b.order === 1 ? sum + (b.analysis?.costUsd ?? 0) : sum), 0));
  const engines = await openRunEngines(options.image, { docker: options.docker, signal: options.signal, onEvent: options.onEngineEvent });
  // The checks of a bug are placed like a rollout; a verdict from an engine that was lost is replaced by the next try's.
  const check = (bugId: string, rolloutId: string) => engines.run(`${rolloutId}-check`, (placement) => checkOn(placement, bugId, rolloutId));
  const checkOn = async (placement: Placement, bugId: string, rolloutId: string) => {
    const { bug } = await checkStoredBug(store, bugId, {
      parallelism: options.checkParallelism ?? 2,
      runId: `${rolloutId}-check`,
      docker: placement.docker,
      signal: placement.signal,
      onEvent: options.onCheckEvent ? (event) => options.onCheckEvent!(rolloutId, event) : undefined,
    });
    await placement.confirm();
    // A valid bug gets BugPilot's analysis from the run's own policy; if that fails, `bugbench analyse` can redo it.
    let analysisError: string | undefined;
    if (bug.check?.valid) await analyseBug(store, bug.id, options, options.signal, runBudget).catch((error: unknown) => (analysisError = errorMessage(error)));
    options.onBug?.({ ...injectedBug(store, store.get('bugs', bug.id) ?? bug), ...(analysisError ? { analysisError } : {}) });
  };
  try {
    const work = [...recheck.map((id) => ({ recheck: id })), ...indices.map((index) => ({ index }))];
    await forEachConcurrently(
      work,
      options.concurrency,
      async (item) => {
        if ('recheck' in item) {
          const bug = store.get('bugs', item.recheck)!;
          return check(bug.id, bug.rollout ?? bug.id);
        }
        const rolloutId = `${runId}-r${item.index + 1}`;
        const bugId = await engines.run(rolloutId, (placement) => injectionRollout(store, runId, item.index, options, facts, runBudget, cleanups, placement));
        if (bugId) await check(bugId, rolloutId);
      },
      options.signal,
    );
  } finally {
    await Promise.all(cleanups);
    await engines.close();
  }
}

/** One injector rollout; a submitted artifact becomes a bug record (status `checking`). Returns its id. */
async function injectionRollout(
  store: Store,
  runId: string,
  index: number,
  options: InjectOptions,
  facts: ImageFacts,
  runBudget: Budget,
  cleanups: Promise<void>[],
  placement: Placement,
): Promise<string | undefined> {
  const rolloutId = `${runId}-r${index + 1}`;
  const staging = join(runDir(store, runId), `${rolloutId}-artifact`);
  rmSync(staging, { recursive: true, force: true });
  const prompt = promptOf(options.strategy, options.seed, index);
  const prompts = injectionPrompts(prompt, { repoRoot: '/repo', ...options.params });
  const outcome = await runRollout({
    store,
    id: rolloutId,
    runId,
    role: 'injector',
    strategy: options.strategy,
    policy: options.policy,
    image: options.image,
    model: injectorModel(options, index, prompt),
    system: prompts.system,
    task: prompts.task,
    maxSteps: options.maxSteps,
    budget: new Budget(options.budgetUsd),
    runBudget,
    submit: (sandbox) => injectorSubmit(prompt, sandbox, staging, facts.baseCommit),
    // The cap protects a model's context; the scripted offline agent reads whole outputs (file lists of big repos).
    maxOutputChars: options.policy === 'offline' ? 4 * 1024 * 1024 : DEFAULT_TOOL_OPTIONS.maxOutputChars,
    signal: placement.signal,
    onEvent: options.onEvent ? (event) => options.onEvent!(rolloutId, event) : undefined,
    docker: placement.docker,
    where: { ...options.where, engine: placement.engine.name },
  });
  cleanups.push(outcome.cleanup);
  // A rollout whose engine went away ends here; the pool runs it again elsewhere.
  await placement.confirm(outcome.failure);
  if (outcome.reason !== 'submitted' || !existsSync(staging)) {
    rmSync(staging, { recursive: true, force: true });
    return undefined;
  }
  if (prompt === 'featadd') {
    // A feature is a bug only if the tests, run now, show that it broke something.
    const found = await findFeatureBug(staging, { image: options.image, baseCommit: facts.baseCommit, params: options.params, runId: `${rolloutId}-feature`, signal: placement.signal, docker: placement.docker });
    await placement.confirm();
    if (found.kind !== 'broke') {
      const detail = found.kind === 'no-bug' ? `no bug: the feature kept every test passing (${found.passed})` : `no bug: ${found.reason}`;
      store.transact((tx) => tx.patch('rollouts', rolloutId, { status: found.kind === 'no-bug' ? 'no-bug' : 'error', detail }));
      rmSync(staging, { recursive: true, force: true });
      return undefined;
    }
    store.transact((tx) => tx.patch('rollouts', rolloutId, { detail: `the feature broke ${found.broken.length} test(s)` }));
  }
  const bug = addBug(store, staging, {
    image: options.image,
    imageId: facts.imageId,
    repo: facts.repo,
    baseCommit: facts.baseCommit,
    strategy: options.strategy,
    policy: options.policy,
    model: modelName(options),
    order: 1,
    parentId: null,
    attemptId: null,
    runId,
    rollout: rolloutId,
    trajectory: outcome.trajectory,
    params: options.params,
    extraMeta: { prompt, seed: options.policy === 'offline' ? rolloutSeed(options.seed, index) : null, baseUrl: identityOf(options, '').baseUrl },
  });
  return bug.id;
}
