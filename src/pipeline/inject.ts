/**
 * An injection run: N rollouts (C at a time) of an injector in fresh
 * containers of one image, or of a corpus of images dealt round-robin
 * (corpus.ts). The run and each rollout are records in the
 * workspace store from the start; a submitted artifact becomes a bug (moved
 * into `bugs/<id>/` whole, then recorded) and is judged by the nine checks.
 * A run a dead process left behind is `interrupted`; `resumeInjection`
 * finishes it with its own options: rollouts that never finished run again
 * (same index, same seed) and bugs whose checks were cancelled are checked.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerEngine } from '../sandbox/port.js';
import { Budget } from '../agent/budget.js';
import { identityOf, verifyPolicy, type ModelSettings } from '../agent/policies.js';
import { offlineRefusal } from '../agent/offline/kit.js';
import { rolloutSeed } from '../agent/offline/rng.js';
import { injectionPrompts } from '../agent/prompts.js';
import { DEFAULT_TOOL_OPTIONS } from '../agent/tools.js';
import type { CheckParams } from '../bugs/meta.js';
import { BugbenchError, errorMessage, ImageNotAdoptedError, UsageError } from '../errors.js';
import { currentProcess, processAlive } from '../process-identity.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { adoptImage } from '../sandbox/adopt.js';
import { inspectRepoImage, type RepoImageFacts } from '../sandbox/repo-images.js';
import type { RolloutRecord, RunRecord } from '../store/records.js';
import { RecordNotFoundError, type Store } from '../store/store.js';
import { checkStoredBug } from './bug-checks.js';
import { ignore, type Deps, type InjectedBug, type Report } from './events.js';
import { findFeatureBug } from './feature-bug.js';
import { injectorModel, injectorSubmit, modelName, needsModel, promptOf, STRATEGIES, type InjectStrategy } from './injectors.js';
import { addBug } from './new-bug.js';
import { analyseBug } from './analysis.js';
import type { RunPlacement as Placement } from './run-engines.js';
import type { PolicyName } from './policy.js';
import { runRollout } from './rollout.js';
import { corpusOf, imageOfRollout, imagesOfRollouts } from './corpus.js';
import { finishRun, newRunId, recordRun, runDir, runItems, type RunFloor } from './run-orchestrator.js';
import { injectedBug, runResult, type InjectResult } from './run-result.js';

export { STRATEGIES, type InjectStrategy } from './injectors.js';
export { defaultPolicy, type PolicyName } from './policy.js';
export { runResult } from './run-result.js';
export type { InjectResult, InjectYield, RolloutSummary } from './run-result.js';
export { runDir } from './run-orchestrator.js';
export type { InjectedBug } from './events.js';

/** Rollouts at work at once when the settings do not say. */
export const DEFAULT_CONCURRENCY = 2;

/** The rollouts a run has at work at once: what was asked, never more than its bugs (1 bug with 2 at a time runs 1). */
export function runConcurrency(settings: Pick<InjectSettings, 'n' | 'concurrency'>): number {
  return Math.max(1, Math.min(settings.n, settings.concurrency));
}

/** What a run is: plain data, kept in its record as it is, so `--resume` runs the rest the same way. */
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

export interface ImageFacts {
  baseCommit: string;
  imageId: string;
  repo: string;
  /** Where the repository is in the image (/repo in bugbench's own, /testbed in SWE-bench's, …). */
  root: string;
}

/**
 * What the run needs of its image: an image bugbench built, as its labels say;
 * any other image adopted as it is the first time a run names it (adopt.ts),
 * which the run's report says.
 */
async function imageFacts(engine: ContainerEngine, image: string, report: Report): Promise<RepoImageFacts> {
  try {
    return await inspectRepoImage(engine, image);
  } catch (error) {
    if (!(error instanceof ImageNotAdoptedError)) throw error;
    await adoptImage(engine, image, { progress: (message) => report({ type: 'progress', message }) });
    return inspectRepoImage(engine, image);
  }
}

/** Each image's facts, by tag. */
export type CorpusFacts = Map<string, ImageFacts>;

/**
 * Everything that can be wrong with the settings, found before any container
 * starts: among them each image the rollouts `indices` run on, checked or
 * adopted (an error names the image).
 */
async function prepare(settings: InjectSettings, engine: ContainerEngine, report: Report = ignore, indices: readonly number[] = [...Array(settings.n).keys()]): Promise<CorpusFacts> {
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
  const facts: CorpusFacts = new Map();
  for (const tag of imagesOfRollouts(settings, indices)) {
    const image = await imageFacts(engine, tag, report);
    const refusal = settings.policy === 'offline' ? offlineRefusal(image.language, tag) : undefined;
    if (refusal) throw new UsageError(refusal);
    facts.set(tag, { baseCommit: image.commit, imageId: image.imageId, repo: image.repo, root: image.root });
  }
  await verifyPolicy(settings);
  return facts;
}

export async function runInjection(settings: InjectSettings, deps: Deps, report: Report = ignore): Promise<InjectResult> {
  const { runId, facts } = await createInjectionRun(settings, deps, { report });
  report({ type: 'run-started', runId, kind: 'inject' });
  return executeRun(runId, settings, facts, [...Array(settings.n).keys()], [], deps, report);
}

/** Checks the settings and records the run with its rollouts (pending); `cluster` marks a run made by a job array. */
export async function createInjectionRun(settings: InjectSettings, deps: Deps, opening: { cluster?: RunRecord['cluster']; report?: Report } = {}): Promise<{ runId: string; facts: CorpusFacts }> {
  const { store } = deps;
  const { cluster } = opening;
  const facts = await prepare(settings, deps.engine ?? defaultContainerEngine(), opening.report);
  const runId = newRunId('run');
  // The settings are kept as they are: they never hold an API key (the flag sets this process's environment).
  const corpus = corpusOf(settings);
  const run = { kind: 'inject', image: settings.image, ...(corpus.length > 1 ? { images: corpus } : {}), strategy: settings.strategy, policy: settings.policy, model: modelName(settings), baseUrl: identityOf(settings, '').baseUrl, n: settings.n, options: { ...settings } } as const;
  recordRun(store, runId, { ...run, ...(cluster ? { cluster } : {}) }, { role: 'injector', prefix: 'r' }, (tx, ids) => {
    const now = new Date().toISOString();
    for (const [tag, image] of facts) {
      const seen = tx.get('images', tag);
      tx.put('images', { id: tag, imageId: image.imageId, repo: image.repo, commit: image.baseCommit, firstSeen: seen?.firstSeen ?? now, lastUsed: now });
    }
    // Each rollout of a corpus keeps its image, so a resume or a cluster task runs it there.
    if (corpus.length > 1) ids.forEach((id, index) => tx.patch('rollouts', id, { image: imageOfRollout(settings, index) }));
  });
  return { runId, facts };
}

export class RunNotResumableError extends BugbenchError {
  constructor(message: string) {
    super('BB_RUN_NOT_RESUMABLE', message);
  }
}

/** Rollouts that ended without a result the run can use: never started, cut off, or cancelled. */
export const UNFINISHED: readonly RolloutRecord['status'][] = ['pending', 'running', 'interrupted', 'cancelled'];

/** The settings a run was recorded with. */
function recordedSettings(store: Store, runId: string): InjectSettings {
  const run = store.get('runs', runId);
  if (!run || run.kind !== 'inject') throw new RecordNotFoundError('runs', runId);
  return run.options as unknown as InjectSettings;
}

/** Finishes a run that was interrupted or cancelled, with its own settings. */
export async function resumeInjection(runId: string, deps: Deps, report: Report = ignore): Promise<InjectResult> {
  const { store } = deps;
  const settings = recordedSettings(store, runId);
  const run = store.get('runs', runId)!;
  if (run.status === 'running' && processAlive(run.owner)) {
    throw new RunNotResumableError(`run ${runId} is still running (process ${run.owner.pid} on ${run.owner.host})`);
  }
  const { indices: again, recheck } = unfinishedWork(store, runId);
  const facts = await prepare(settings, deps.engine ?? defaultContainerEngine(), ignore, again);
  store.transact((tx) => tx.patch('runs', runId, { status: 'running', owner: currentProcess(), finishedAt: null, error: null }));
  report({ type: 'run-started', runId, kind: 'inject' });
  return executeRun(runId, settings, facts, again, recheck, deps, report);
}

/** What a resume has to do: rollouts that never finished, and bugs whose checks were cut off. */
export function unfinishedWork(store: Store, runId: string): { indices: number[]; recheck: string[] } {
  const indices = store.all('rollouts').filter((r) => r.runId === runId && UNFINISHED.includes(r.status) && !r.bugId).map((r) => r.index);
  const recheck = store.all('bugs').filter((b) => b.runId === runId && (b.status === 'cancelled' || b.status === 'checking')).map((b) => b.id);
  return { indices, recheck };
}

/** One cluster task's share of a recorded run, with this node's engine(s); the run's status is left to whoever follows the job array. */
export async function runInjectionShare(runId: string, share: { indices: number[]; recheck: string[] }, deps: Deps, report: Report = ignore): Promise<void> {
  const settings = recordedSettings(deps.store, runId);
  const facts = await prepare(settings, deps.engine ?? defaultContainerEngine(), ignore, share.indices);
  await runShare(runId, settings, facts, share.indices, share.recheck, deps, report);
}

async function executeRun(runId: string, settings: InjectSettings, facts: CorpusFacts, indices: number[], recheck: string[], deps: Deps, report: Report): Promise<InjectResult> {
  await finishRun(deps.store, runId, deps, report, () => runShare(runId, settings, facts, indices, recheck, deps, report));
  return runResult(deps.store, runId);
}

type Work = { recheck: string } | { index: number };

/** Runs rollouts (by index) and checks bugs again, each placed on the run's engines; returns once their containers are gone. */
async function runShare(runId: string, settings: InjectSettings, facts: CorpusFacts, indices: number[], recheck: string[], deps: Deps, report: Report): Promise<void> {
  const { store } = deps;
  const runBudget = new Budget(settings.runBudgetUsd);
  runBudget.add(store.all('rollouts').reduce((sum, r) => (r.runId === runId ? sum + r.costUsd : sum), 0));
  // BugPilot's analyses of the run's bugs were paid from its budget too.
  runBudget.add(store.all('bugs').reduce((sum, b) => (b.runId === runId && b.order === 1 ? sum + (b.analysis?.costUsd ?? 0) : sum), 0));
  const work: Work[] = [...recheck.map((id) => ({ recheck: id })), ...indices.map((index) => ({ index }))];
  // The images of the rollouts and of the bugs checked again are put on every engine of the run.
  const images = [...new Set([...facts.keys(), ...recheck.map((id) => store.get('bugs', id)?.image ?? settings.image)])];
  await runItems(images.length > 0 ? images : [settings.image], runConcurrency(settings), work, deps, report, async (item, floor) => {
    // The checks of a bug are placed like a rollout; a verdict from an engine that was lost is replaced by the next try's.
    const check = (bugId: string, rolloutId: string) =>
      floor.engines.run(`${rolloutId}-check`, (placement) => checkOn(placement, bugId, rolloutId, settings, runBudget, deps, report));
    if ('recheck' in item) {
      const bug = store.get('bugs', item.recheck)!;
      return check(bug.id, bug.rollout ?? bug.id);
    }
    const rolloutId = `${runId}-r${item.index + 1}`;
    const image = imageOfRollout(settings, item.index);
    const bugId = await floor.engines.run(rolloutId, (placement) => injectionRollout(runId, item.index, { tag: image, ...facts.get(image)! }, settings, runBudget, floor, placement, deps, report));
    if (bugId) await check(bugId, rolloutId);
  });
}

/** A bug's checks on one placement; a valid bug then gets BugPilot's analysis from the run's own policy (`bugbench analyse` redoes a failed one). */
async function checkOn(placement: Placement, bugId: string, rolloutId: string, settings: InjectSettings, runBudget: Budget, deps: Deps, report: Report): Promise<void> {
  const { store } = deps;
  const { bug } = await checkStoredBug(
    { bugId, parallelism: settings.checkParallelism ?? 2, runId: `${rolloutId}-check` },
    { store, engine: placement.port, signal: placement.signal },
    (event) => (event.type === 'check' ? report({ ...event, subject: rolloutId }) : report(event)),
  );
  await placement.confirm();
  let analysisError: string | undefined;
  if (bug.check?.valid) await analyseBug(store, bug.id, settings, deps.signal, runBudget).catch((error: unknown) => (analysisError = errorMessage(error)));
  report({ type: 'bug', bug: { ...injectedBug(store, store.get('bugs', bug.id) ?? bug), ...(analysisError ? { analysisError } : {}) } });
}

/** One injector rollout on its image; a submitted artifact becomes a bug record (status `checking`). Returns its id. */
async function injectionRollout(
  runId: string,
  index: number,
  facts: ImageFacts & { tag: string },
  settings: InjectSettings,
  runBudget: Budget,
  floor: RunFloor,
  placement: Placement,
  deps: Deps,
  report: Report,
): Promise<string | undefined> {
  const { store } = deps;
  const rolloutId = `${runId}-r${index + 1}`;
  const staging = join(runDir(store, runId), `${rolloutId}-artifact`);
  rmSync(staging, { recursive: true, force: true });
  const prompt = promptOf(settings.strategy, settings.seed, index);
  const prompts = injectionPrompts(prompt, { repoRoot: facts.root, ...settings.params });
  const outcome = await runRollout({
    store,
    id: rolloutId,
    runId,
    role: 'injector',
    strategy: settings.strategy,
    policy: settings.policy,
    image: facts.tag,
    model: injectorModel(settings, index, prompt),
    system: prompts.system,
    task: prompts.task,
    maxSteps: settings.maxSteps,
    budget: new Budget(settings.budgetUsd),
    runBudget,
    submit: (sandbox) => injectorSubmit(prompt, sandbox, staging, facts.baseCommit),
    // The cap protects a model's context; the scripted offline agent reads whole outputs (file lists of big repos).
    maxOutputChars: settings.policy === 'offline' ? 4 * 1024 * 1024 : DEFAULT_TOOL_OPTIONS.maxOutputChars,
    signal: placement.signal,
    report: (event) => report({ type: 'rollout', rolloutId, event }),
    engine: placement.port,
    where: { ...deps.where, engine: placement.engine.name },
  });
  floor.cleanup(outcome.cleanup);
  // A rollout whose engine went away ends here; the pool runs it again elsewhere.
  await placement.confirm(outcome.failure);
  if (outcome.reason !== 'submitted' || !existsSync(staging)) {
    rmSync(staging, { recursive: true, force: true });
    return undefined;
  }
  if (prompt === 'featadd') {
    // A feature is a bug only if the tests, run now, show that it broke something.
    const found = await findFeatureBug(staging, { image: facts.tag, baseCommit: facts.baseCommit, params: settings.params, runId: `${rolloutId}-feature`, signal: placement.signal, engine: placement.port });
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
    image: facts.tag,
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
  report({ type: 'bug-added', bug });
  return bug.id;
}
