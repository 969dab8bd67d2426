/**
 * An injection run: N rollouts (C at a time) of an injector in fresh containers
 * of one image. Each rollout's events are recorded as a trajectory; a submitted
 * artifact becomes a bug folder in the workspace and is judged by the nine
 * consistency checks. The run's own record says what happened to every rollout.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { AnthropicModel, DEFAULT_MODEL } from '../agent/anthropic-model.js';
import { artifactSubmitHandler } from '../agent/artifact-submit.js';
import { Budget } from '../agent/budget.js';
import { EventStream, type FinishReason, type RolloutEvent } from '../agent/events.js';
import { runAgent } from '../agent/loop.js';
import type { Model } from '../agent/model.js';
import { offlineInjector, OFFLINE_STRATEGIES, type OfflineStrategy } from '../agent/offline/injector.js';
import { OfflineModel } from '../agent/offline/offline-model.js';
import { Rng, rolloutSeed } from '../agent/offline/rng.js';
import { injectionPrompts } from '../agent/prompts.js';
import { DEFAULT_TOOL_OPTIONS, INJECTOR_SUBMIT, ToolSet } from '../agent/tools.js';
import { TrajectoryRecorder } from '../agent/trajectory.js';
import { loadArtifact } from '../bugs/artifact.js';
import type { CheckEvent, CheckReport } from '../bugs/check-types.js';
import { checkArtifact } from '../bugs/consistency.js';
import type { BugMeta, CheckParams } from '../bugs/meta.js';
import { bugsDir } from '../bugs/resolve.js';
import { ImageNotFoundError, UsageError, errorMessage } from '../errors.js';
import { workspacePath } from '../paths.js';
import { dockerClient, isNotFound } from '../sandbox/docker.js';
import { LABEL_COMMIT, LABEL_REPO } from '../sandbox/labels.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { writeJsonAtomic } from '../store/atomic.js';

export const STRATEGIES = ['removal', 'history', 'direct', 'featadd', 'buginstruct'] as const;
export type InjectStrategy = (typeof STRATEGIES)[number];
export type PolicyName = 'anthropic' | 'offline';

export function defaultPolicy(env: NodeJS.ProcessEnv = process.env): PolicyName {
  return env.ANTHROPIC_API_KEY ? 'anthropic' : 'offline';
}

export interface InjectOptions {
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
  onEvent?: (rolloutId: string, event: RolloutEvent) => void;
  onCheckEvent?: (rolloutId: string, event: CheckEvent) => void;
  onBug?: (bug: InjectedBug) => void;
  signal?: AbortSignal;
  docker?: Docker;
}

export interface InjectedBug {
  id: string;
  rollout: string;
  valid: boolean;
  failedCheck: string | null;
  artifactDir: string;
  trajectory: string;
}

export interface RolloutSummary {
  rollout: string;
  reason: FinishReason;
  steps: number;
  costUsd: number;
  durationMs: number;
  trajectory: string;
  bugId: string | null;
  detail?: string;
}

export interface InjectResult {
  runId: string;
  bugs: InjectedBug[];
  rollouts: RolloutSummary[];
}

export function runDir(runId: string): string {
  return workspacePath('runs', runId);
}

function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `run-${stamp}-${randomUUID().slice(0, 4)}`;
}

/** Everything that can be wrong with the options, found before any container starts. */
async function prepare(options: InjectOptions, docker: Docker) {
  if (!STRATEGIES.includes(options.strategy)) {
    throw new UsageError(`unknown strategy "${options.strategy}"; use one of ${STRATEGIES.join(', ')}`);
  }
  if (options.policy === 'offline' && !OFFLINE_STRATEGIES.includes(options.strategy as OfflineStrategy)) {
    throw new UsageError(
      `the ${options.strategy} strategy needs a model: it asks an agent to write a feature or a deliberate bug, which the offline policy cannot do; use --policy anthropic with ANTHROPIC_API_KEY set`,
    );
  }
  if (!Number.isInteger(options.n) || options.n < 1) throw new UsageError('-n must be a positive integer');
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new UsageError('--concurrency must be a positive integer');
  let labels: Record<string, string>;
  let imageId: string;
  try {
    const info = await docker.getImage(options.image).inspect();
    labels = info.Config?.Labels ?? {};
    imageId = info.Id;
  } catch (error) {
    if (isNotFound(error)) throw new ImageNotFoundError(options.image);
    throw error;
  }
  const baseCommit = labels[LABEL_COMMIT];
  if (!baseCommit) throw new UsageError(`image ${options.image} has no bugbench.commit label; build it with \`bugbench images build\``);
  if (options.policy === 'anthropic') {
    const probe = new AnthropicModel({ model: options.model, maxTokens: options.maxTokens });
    await probe.verify();
  }
  return { baseCommit, imageId, repo: labels[LABEL_REPO] ?? 'repo' };
}

function makeModel(options: InjectOptions, index: number): Model {
  if (options.policy === 'anthropic') return new AnthropicModel({ model: options.model ?? DEFAULT_MODEL, maxTokens: options.maxTokens });
  const strategy = options.strategy as OfflineStrategy;
  return new OfflineModel(
    `offline/${strategy}`,
    offlineInjector({
      strategy,
      rng: new Rng(rolloutSeed(options.seed, index)),
      minPassingTests: options.params.minPassingTests,
      minChangedFiles: options.params.minChangedFiles,
      minFailingTests: options.params.minFailingTests,
      testTimeoutSec: options.params.testTimeoutSec,
    }),
  );
}

export async function runInjection(options: InjectOptions): Promise<InjectResult> {
  const docker = options.docker ?? dockerClient();
  const { baseCommit, imageId, repo } = await prepare(options, docker);
  const runId = newRunId();
  const dir = runDir(runId);
  mkdirSync(dir, { recursive: true });
  const record = {
    runId,
    status: 'running' as 'running' | 'finished' | 'cancelled',
    startedAt: new Date().toISOString(),
    options: {
      image: options.image,
      strategy: options.strategy,
      policy: options.policy,
      model: options.policy === 'anthropic' ? (options.model ?? DEFAULT_MODEL) : `offline/${options.strategy}`,
      n: options.n,
      concurrency: options.concurrency,
      seed: options.seed,
      params: options.params,
      maxSteps: options.maxSteps,
      budgetUsd: options.budgetUsd ?? null,
      runBudgetUsd: options.runBudgetUsd ?? null,
    },
    rollouts: [] as RolloutSummary[],
    bugs: [] as InjectedBug[],
  };
  writeJsonAtomic(join(dir, 'run.json'), record);
  const runBudget = new Budget(options.runBudgetUsd);

  const rollout = async (index: number): Promise<void> => {
    const rolloutId = `${runId}-r${index + 1}`;
    const trajectory = join(dir, `${rolloutId}.jsonl`);
    const stream = new EventStream();
    const recorder = new TrajectoryRecorder(trajectory);
    recorder.attach(stream);
    if (options.onEvent) stream.subscribe((event) => options.onEvent!(rolloutId, event));
    const model = makeModel(options, index);
    stream.emit({
      type: 'rollout-started',
      rolloutId,
      runId,
      role: 'injector',
      strategy: options.strategy,
      policy: options.policy,
      model: model.name,
      image: options.image,
    });
    const staging = join(dir, `${rolloutId}-artifact`);
    let sandbox: Sandbox | undefined;
    let summary: RolloutSummary;
    try {
      if (runBudget.exhausted) {
        stream.emit({ type: 'finished', reason: 'budget', steps: 0, costUsd: 0, durationMs: 0, detail: 'the run budget was spent before this rollout started' });
        summary = { rollout: rolloutId, reason: 'budget', steps: 0, costUsd: 0, durationMs: 0, trajectory, bugId: null };
      } else {
        sandbox = await Sandbox.create({ image: options.image, runId: rolloutId });
        const tools = new ToolSet(sandbox, {
          ...DEFAULT_TOOL_OPTIONS,
          // The cap protects a model's context; the scripted offline agent reads whole outputs (file lists of big repos).
          maxOutputChars: options.policy === 'offline' ? 4 * 1024 * 1024 : DEFAULT_TOOL_OPTIONS.maxOutputChars,
          submit: { definition: INJECTOR_SUBMIT, handle: artifactSubmitHandler(sandbox, staging) },
        });
        const prompts = injectionPrompts(options.strategy, { repoRoot: '/repo', ...options.params });
        const started = performance.now();
        const result = await runAgent({
          model,
          tools,
          system: prompts.system,
          task: prompts.task,
          maxSteps: options.maxSteps,
          stream,
          budget: new Budget(options.budgetUsd),
          runBudget,
          signal: options.signal,
        });
        recorder.writeMessages(result.messages);
        summary = {
          rollout: rolloutId,
          reason: result.reason,
          steps: result.steps,
          costUsd: result.costUsd,
          durationMs: Math.round(performance.now() - started),
          trajectory,
          bugId: null,
          detail: result.detail,
        };
      }
    } catch (error) {
      stream.emit({ type: 'error', message: errorMessage(error) });
      stream.emit({ type: 'finished', reason: 'error', steps: 0, costUsd: 0, durationMs: 0, detail: errorMessage(error) });
      summary = { rollout: rolloutId, reason: 'error', steps: 0, costUsd: 0, durationMs: 0, trajectory, bugId: null, detail: errorMessage(error) };
    } finally {
      await sandbox?.remove().catch(() => undefined);
    }

    if (summary.reason === 'submitted' && existsSync(staging)) {
      const bug = await storeAndCheck({ options, runId, rolloutId, index, staging, trajectory, repo, baseCommit, imageId, model: model.name });
      summary.bugId = bug.id;
      record.bugs.push(bug);
      options.onBug?.(bug);
    } else rmSync(staging, { recursive: true, force: true });
    record.rollouts.push(summary);
    writeJsonAtomic(join(dir, 'run.json'), record);
  };

  const queue = Array.from({ length: options.n }, (_, i) => i);
  const worker = async () => {
    for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
      if (options.signal?.aborted) break;
      await rollout(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, options.n) }, worker));
  record.status = options.signal?.aborted ? 'cancelled' : 'finished';
  record.rollouts.sort((a, b) => a.rollout.localeCompare(b.rollout, undefined, { numeric: true }));
  record.bugs.sort((a, b) => a.rollout.localeCompare(b.rollout, undefined, { numeric: true }));
  writeJsonAtomic(join(dir, 'run.json'), { ...record, finishedAt: new Date().toISOString() });
  return { runId, bugs: record.bugs, rollouts: record.rollouts };
}

interface StoreInput {
  options: InjectOptions;
  runId: string;
  rolloutId: string;
  index: number;
  staging: string;
  trajectory: string;
  repo: string;
  baseCommit: string;
  imageId: string;
  model: string;
}

/** Moves a submitted artifact into the bugs folder with its meta.json, then runs the checks and keeps their report. */
async function storeAndCheck(input: StoreInput): Promise<InjectedBug> {
  const { options } = input;
  const id = `${input.repo}-${options.strategy}-${randomUUID().slice(0, 8)}`;
  const meta: BugMeta & Record<string, unknown> = {
    image: { tag: options.image, id: input.imageId },
    baseCommit: input.baseCommit,
    strategy: options.strategy,
    policy: options.policy,
    model: input.model,
    order: 1,
    parentId: null,
    params: options.params,
    createdAt: new Date().toISOString(),
    runId: input.runId,
    rollout: input.rolloutId,
    seed: options.policy === 'offline' ? rolloutSeed(options.seed, input.index) : null,
    trajectory: input.trajectory,
  };
  writeJsonAtomic(join(input.staging, 'meta.json'), meta);
  const artifactDir = join(bugsDir(), id);
  mkdirSync(bugsDir(), { recursive: true });
  renameSync(input.staging, artifactDir);

  let report: CheckReport;
  try {
    report = await checkArtifact({
      artifact: loadArtifact(artifactDir),
      image: options.image,
      baseCommit: input.baseCommit,
      params: options.params,
      logDir: join(artifactDir, 'checks'),
      parallelism: options.checkParallelism ?? 2,
      runId: `${input.rolloutId}-check`,
      signal: options.signal,
      onEvent: options.onCheckEvent ? (event) => options.onCheckEvent!(input.rolloutId, event) : undefined,
    });
  } catch (error) {
    report = { valid: false, checks: [], FAIL_TO_PASS: [], PASS_TO_PASS: [] };
    writeJsonAtomic(join(artifactDir, 'check-error.json'), { error: errorMessage(error) });
  }
  writeJsonAtomic(join(artifactDir, 'checks.json'), report);
  return {
    id,
    rollout: input.rolloutId,
    valid: report.valid,
    failedCheck: report.checks.find((c) => c.verdict === 'fail')?.name ?? (report.valid ? null : 'checks did not run'),
    artifactDir,
    trajectory: input.trajectory,
  };
}
