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
import type { ContainerEngine } from '../sandbox/port.js';
import { offlineRefusal } from '../agent/offline/kit.js';
import { identityOf, verifyPolicy } from '../agent/policies.js';
import { BugbenchError, ImageNotAdoptedError, UsageError } from '../errors.js';
import { currentProcess, processAlive } from '../process-identity.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { adoptImage } from '../sandbox/adopt.js';
import { inspectRepoImage, type RepoImageFacts } from '../sandbox/repo-images.js';
import { recordedImageName } from '../sandbox/image-names.js';
import { CUT_OFF_STATUSES, type RolloutRecord, type RunRecord } from '../store/records.js';
import { RecordNotFoundError, type Store } from '../store/store.js';
import { ignore, type Deps, type Report } from './events.js';
import { checkBug, injectionRollout, type CorpusFacts, type InjectScope } from './inject-rollout.js';
import { injectSettings, runConcurrency, type InjectSettings } from './inject-settings.js';
import { modelName, needsModel, STRATEGIES } from './injectors.js';
import { corpusOf, imageOfRollout, imagesOfRollouts } from './corpus.js';
import { finishRun, newRunId, recordRun } from './run-orchestrator.js';
import { runResult, type InjectResult } from './run-result.js';
import { openRunScope } from './run-scope.js';

export { STRATEGIES, type InjectStrategy } from './injectors.js';
export { defaultPolicy, type PolicyName } from './policy.js';
export { runResult } from './run-result.js';
export type { InjectResult, InjectYield, RolloutSummary } from './run-result.js';
export { runDir } from './run-orchestrator.js';
export type { InjectedBug } from './events.js';
export type { CorpusFacts, ImageFacts } from './inject-rollout.js';
export { DEFAULT_CONCURRENCY, INJECT_DEFAULTS, injectSettings, runConcurrency, type InjectRequest, type InjectSettings } from './inject-settings.js';

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

/**
 * Everything that can be wrong with the settings, found before any container
 * starts: among them each image the rollouts `indices` run on, checked or
 * adopted (an error names the image).
 */
async function prepare(settings: InjectSettings, on: { engine: ContainerEngine; indices?: readonly number[] }, report: Report = ignore): Promise<CorpusFacts> {
  const { engine, indices = [...Array(settings.n).keys()] } = on;
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
    facts.set(tag, { baseCommit: image.commit, imageId: image.imageId, repo: image.repo, root: image.root, testCommand: image.testCommand });
  }
  await verifyPolicy(settings);
  return facts;
}

export async function runInjection(given: InjectSettings, deps: Deps, report: Report = ignore): Promise<InjectResult> {
  const { runId, facts, settings } = await createInjectionRun(given, deps, { report });
  report({ type: 'run-started', runId, kind: 'inject' });
  const work = { indices: [...Array(settings.n).keys()], recheck: [] };
  return executeRun(injectScope({ id: runId, settings, facts, work }, deps, report), work);
}

/** The settings with each image under the one name its bugs are filed by (`x` → `x:latest`). */
function withRecordedImageNames(settings: InjectSettings): InjectSettings {
  return { ...settings, image: recordedImageName(settings.image), ...(settings.images ? { images: settings.images.map(recordedImageName) } : {}) };
}

/**
 * Checks the settings and records the run with its rollouts (pending), its
 * images under the names their bugs are filed by (the settings returned);
 * `cluster` marks a run made by a job array.
 */
export async function createInjectionRun(given: InjectSettings, deps: Deps, opening: { cluster?: RunRecord['cluster']; report?: Report } = {}): Promise<{ runId: string; facts: CorpusFacts; settings: InjectSettings }> {
  const settings = withRecordedImageNames(given);
  const { store } = deps;
  const { cluster } = opening;
  const facts = await prepare(settings, { engine: deps.engine ?? defaultContainerEngine() }, opening.report);
  const runId = newRunId('run');
  // The settings are kept as they are: they never hold an API key (the flag sets this process's environment).
  const corpus = corpusOf(settings);
  const run = { kind: 'inject', image: settings.image, ...(corpus.length > 1 ? { images: corpus } : {}), strategy: settings.strategy, policy: settings.policy, model: modelName(settings), baseUrl: identityOf(settings, '').baseUrl, n: settings.n, options: { ...settings } } as const;
  recordRun(store, { id: runId, run: { ...run, ...(cluster ? { cluster } : {}) }, rollouts: { role: 'injector', prefix: 'r' } }, (tx, ids) => {
    const now = new Date().toISOString();
    for (const [tag, image] of facts) {
      const seen = tx.get('images', tag);
      tx.put('images', { id: tag, imageId: image.imageId, repo: image.repo, commit: image.baseCommit, firstSeen: seen?.firstSeen ?? now, lastUsed: now });
    }
    // Each rollout of a corpus keeps its image, so a resume or a cluster task runs it there.
    if (corpus.length > 1) ids.forEach((id, index) => tx.patch('rollouts', id, { image: imageOfRollout(settings, index) }));
  });
  return { runId, facts, settings };
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
  // Defaults added since the run was recorded apply to it too.
  return injectSettings(run.options as unknown as InjectSettings);
}

/** Finishes a run that was interrupted or cancelled, with its own settings. */
export async function resumeInjection(runId: string, deps: Deps, report: Report = ignore): Promise<InjectResult> {
  const { store } = deps;
  const settings = recordedSettings(store, runId);
  const run = store.get('runs', runId)!;
  if (run.status === 'running' && processAlive(run.owner)) {
    throw new RunNotResumableError(`run ${runId} is still running (process ${run.owner.pid} on ${run.owner.host})`);
  }
  const work = unfinishedWork(store, runId);
  const facts = await prepare(settings, { engine: deps.engine ?? defaultContainerEngine(), indices: work.indices });
  store.transact((tx) => tx.patch('runs', runId, { status: 'running', owner: currentProcess(), finishedAt: null, error: null }));
  report({ type: 'run-started', runId, kind: 'inject' });
  return executeRun(injectScope({ id: runId, settings, facts, work }, deps, report), work);
}

/** What a resume has to do: rollouts that never finished, and bugs whose checks were cut off. */
export function unfinishedWork(store: Store, runId: string): InjectWork {
  const indices = store.all('rollouts').filter((r) => r.runId === runId && UNFINISHED.includes(r.status) && !r.bugId).map((r) => r.index);
  const recheck = store.all('bugs').filter((b) => b.runId === runId && CUT_OFF_STATUSES.includes(b.status)).map((b) => b.id);
  return { indices, recheck };
}

/** One cluster task's share of a recorded run, with this node's engine(s); the run's status is left to whoever follows the job array. */
export async function runInjectionShare(share: InjectWork & { runId: string }, deps: Deps, report: Report = ignore): Promise<void> {
  const { runId } = share;
  const settings = recordedSettings(deps.store, runId);
  const facts = await prepare(settings, { engine: deps.engine ?? defaultContainerEngine(), indices: share.indices });
  await runShare(injectScope({ id: runId, settings, facts, work: share }, deps, report), share);
}

/** The work a run (or a share of it) has: bugs whose checks are done again, and rollouts by index. */
export interface InjectWork {
  indices: number[];
  recheck: string[];
}

async function executeRun(scope: InjectScope, work: InjectWork): Promise<InjectResult> {
  await finishRun(scope, () => runShare(scope, work));
  return runResult(scope.store, scope.id);
}

/** The scope of an injection run, its images' facts with it. */
function injectScope(run: { id: string; settings: InjectSettings; facts: CorpusFacts; work: InjectWork }, deps: Deps, report: Report): InjectScope {
  const { store } = deps;
  // The images of the rollouts and of the bugs checked again are put on every engine of the run.
  const images = [...new Set([...run.facts.keys(), ...run.work.recheck.map((id) => store.get('bugs', id)?.image ?? run.settings.image)])];
  const scope = openRunScope({ id: run.id, settings: run.settings, images: images.length > 0 ? images : [run.settings.image], concurrency: runConcurrency(run.settings) }, deps, report);
  return Object.assign(scope, { facts: run.facts });
}

/** Runs rollouts (by index) and checks bugs again, each placed on the run's engines; returns once their containers are gone. */
async function runShare(scope: InjectScope, work: InjectWork): Promise<void> {
  const items: ({ recheck: string } | { index: number })[] = [...work.recheck.map((id) => ({ recheck: id })), ...work.indices.map((index) => ({ index }))];
  await scope.each(items, async (item) => {
    if ('recheck' in item) {
      const bug = scope.store.get('bugs', item.recheck)!;
      return checkBug(scope, { bugId: bug.id, rolloutId: bug.rollout ?? bug.id });
    }
    const rolloutId = `${scope.id}-r${item.index + 1}`;
    const bugId = await scope.place(rolloutId, (placement) => injectionRollout(scope, placement, item.index));
    if (bugId) await checkBug(scope, { bugId, rolloutId });
  });
}
