/**
 * One agent rollout, whatever its role: a fresh container of the image, the
 * agent loop with its tools, every event recorded as a trajectory, and the
 * rollout's record in the store kept up to date. Injection and solving both
 * run their agents through here; they differ only in the plan they pass.
 */
import { existsSync, renameSync } from 'node:fs';
import type { ContainerEngine } from '../sandbox/port.js';
import { Budget } from '../agent/budget.js';
import { EventStream, type FinishReason, type Role, type RolloutEvent, type RolloutWhere } from '../agent/events.js';
import { runAgent } from '../agent/loop.js';
import type { ToolDefinition } from '../agent/messages.js';
import type { Model } from '../agent/model.js';
import { DEFAULT_TOOL_OPTIONS, ToolSet, type SubmitHandler } from '../agent/tools.js';
import { TrajectoryRecorder } from '../agent/trajectory.js';
import { errorMessage, type EngineError } from '../errors.js';
import { asEngineError, isEngineFailure } from '../sandbox/engine-errors.js';
import { Sandbox } from '../sandbox/sandbox.js';
import type { Store } from '../store/store.js';
import { openSandbox } from '../sandbox/engine-table.js';

export interface RolloutPlan {
  store: Store;
  id: string;
  runId: string;
  role: Role;
  strategy: string;
  policy: string;
  image: string;
  model: Model;
  system: string;
  task: string;
  maxSteps: number;
  /** This rollout's spending cap. */
  budget?: Budget;
  /** The whole run's cap, shared by its rollouts. */
  runBudget?: Budget;
  /** The submit tool of this role, made for the rollout's container. */
  submit: (sandbox: Sandbox) => { definition: ToolDefinition; handle: SubmitHandler };
  /** Runs once the container is up, before the agent starts (the solver's starting state). */
  prepare?: (sandbox: Sandbox) => Promise<void>;
  /** Gives a container made (and prepared) ahead, instead of creating one here. */
  sandbox?: () => Promise<Sandbox>;
  /** What the agent sees of a command's output at most. */
  maxOutputChars?: number;
  signal?: AbortSignal;
  /** Takes the rollout's events as they happen (the trajectory recorder takes them too). */
  report?: (event: RolloutEvent) => void;
  engine?: ContainerEngine;
  /** Where it runs (engine; on a cluster, task and node): kept on its record and in its first event. */
  where?: RolloutWhere;
}

export interface RolloutOutcome {
  reason: FinishReason;
  steps: number;
  costUsd: number;
  tokens: number;
  durationMs: number;
  detail?: string;
  /** The trajectory, relative to the workspace. */
  trajectory: string;
  /** What ended it when it failed by an exception (the caller judges whether its engine was to blame). */
  failure?: unknown;
  /** Settles once the rollout's container is removed (off the rollout's own path: await it before the run ends). */
  cleanup: Promise<void>;
}

/** Where a rollout's trajectory goes; a trajectory left by an interrupted try is kept under another name. */
function trajectoryPath(store: Store, runId: string, id: string): string {
  const path = store.abs(`runs/${runId}/${id}.jsonl`);
  if (existsSync(path)) {
    let n = 1;
    while (existsSync(store.abs(`runs/${runId}/${id}.try-${n}.jsonl`))) n++;
    renameSync(path, store.abs(`runs/${runId}/${id}.try-${n}.jsonl`));
  }
  return path;
}

export async function runRollout(plan: RolloutPlan): Promise<RolloutOutcome> {
  const { store } = plan;
  const path = trajectoryPath(store, plan.runId, plan.id);
  const trajectory = store.rel(path);
  const stream = new EventStream();
  const recorder = new TrajectoryRecorder(path);
  recorder.attach(stream);
  let tokens = 0;
  stream.subscribe((event) => {
    if (event.type === 'step-usage') tokens += event.usage.inputTokens + event.usage.outputTokens;
  });
  if (plan.report) stream.subscribe(plan.report);
  const where = plan.where ?? {};
  store.transact((tx) =>
    tx.patch('rollouts', plan.id, {
      status: 'running',
      startedAt: new Date().toISOString(),
      trajectory,
      engine: where.engine ?? null,
      task: where.task ?? null,
      node: where.node ?? null,
      tries: (tx.get('rollouts', plan.id)?.tries ?? 0) + 1,
    }),
  );
  stream.emit({
    type: 'rollout-started',
    rolloutId: plan.id,
    runId: plan.runId,
    role: plan.role,
    strategy: plan.strategy,
    policy: plan.policy,
    model: plan.model.name,
    image: plan.image,
    ...(plan.where ? { where: plan.where } : {}),
  });

  const started = performance.now();
  let outcome: Omit<RolloutOutcome, 'cleanup'>;
  let sandbox: Sandbox | undefined;
  try {
    if (plan.signal?.aborted) {
      // Cancelled before it began: no container is made for it.
      const detail = 'the run was cancelled before this rollout started';
      stream.emit({ type: 'finished', reason: 'cancelled', steps: 0, costUsd: 0, durationMs: 0, detail });
      outcome = { reason: 'cancelled', steps: 0, costUsd: 0, tokens: 0, durationMs: 0, detail, trajectory };
    } else if (plan.runBudget?.exhausted) {
      const detail = 'the run budget was spent before this rollout started';
      stream.emit({ type: 'finished', reason: 'budget', steps: 0, costUsd: 0, durationMs: 0, detail });
      outcome = { reason: 'budget', steps: 0, costUsd: 0, tokens: 0, durationMs: 0, detail, trajectory };
    } else {
      sandbox = plan.sandbox ? await plan.sandbox() : await openSandbox({ image: plan.image, runId: plan.id, engine: plan.engine });
      await plan.prepare?.(sandbox);
      const tools = new ToolSet(sandbox, {
        ...DEFAULT_TOOL_OPTIONS,
        maxOutputChars: plan.maxOutputChars ?? DEFAULT_TOOL_OPTIONS.maxOutputChars,
        submit: plan.submit(sandbox),
      });
      const result = await runAgent({
        model: plan.model,
        tools,
        system: plan.system,
        task: plan.task,
        maxSteps: plan.maxSteps,
        stream,
        budget: plan.budget ?? new Budget(),
        runBudget: plan.runBudget,
        signal: plan.signal,
      });
      recorder.writeMessages(result.messages, { system: plan.system, tools: tools.definitions });
      const durationMs = Math.round(performance.now() - started);
      outcome = { reason: result.reason, steps: result.steps, costUsd: result.costUsd, tokens, durationMs, detail: result.detail, trajectory };
    }
  } catch (error) {
    const reason: FinishReason = plan.signal?.aborted ? 'cancelled' : 'error';
    // The engine's own words are said once, by whoever ends the run; the rollout says only what failed.
    const engine = isEngineFailure(error) ? (asEngineError(error, 'exec') as EngineError) : undefined;
    const detail = engine ? `stopped: ${engine.summary}` : errorMessage(error);
    if (!engine) stream.emit({ type: 'error', message: detail });
    stream.emit({ type: 'finished', reason, steps: 0, costUsd: 0, durationMs: 0, detail });
    outcome = { reason, steps: 0, costUsd: 0, tokens, durationMs: Math.round(performance.now() - started), detail, trajectory, failure: engine ?? error };
  }
  const cleanup = sandbox ? sandbox.remove().catch(() => undefined) : Promise.resolve();
  // A rollout its engine failed was not judged: `inject --resume` runs it again.
  const engineFailed = outcome.failure !== undefined && isEngineFailure(outcome.failure) && !plan.signal?.aborted;
  store.transact((tx) =>
    tx.patch('rollouts', plan.id, {
      status: engineFailed ? 'interrupted' : outcome.reason,
      steps: outcome.steps,
      costUsd: outcome.costUsd,
      tokens: outcome.tokens,
      durationMs: outcome.durationMs,
      detail: engineFailed ? errorMessage(outcome.failure) : (outcome.detail ?? null),
      finishedAt: new Date().toISOString(),
    }),
  );
  return { ...outcome, cleanup };
}
