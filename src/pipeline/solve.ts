/**
 * Solving a bug: K solver attempts (C at a time), each an agent rollout in a
 * fresh container holding the solver's starting state, through the same
 * runner, tools, events and trajectories as injection. The attempt's patch is
 * the diff against its one commit; it is evaluated as SPEC §5 says in two
 * evaluation containers kept for the whole run. The solve rate gives the
 * injection reward (equation 1), each attempt its solver reward (equation 2).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { Budget } from '../agent/budget.js';
import type { RolloutEvent, RolloutWhere } from '../agent/events.js';
import type { Model } from '../agent/model.js';
import { OfflineModel } from '../agent/offline/offline-model.js';
import { identityOf, policyModel, usesModel, verifyPolicy, type ModelSettings } from '../agent/policies.js';
import { Rng, rolloutSeed } from '../agent/offline/rng.js';
import { offlineSolver, solverPlan, type OfflineSolver, type SolverChoice } from '../agent/offline/solver.js';
import { solverPrompts, templateStatement } from '../agent/prompts.js';
import { solverSubmitHandler } from '../agent/solver-submit.js';
import { SOLVER_SUBMIT } from '../agent/tools.js';
import { BUG_FILES, loadArtifact, type BugArtifact } from '../bugs/artifact.js';
import { CheckContext } from '../bugs/check-context.js';
import { evaluateInContext, type TestSpec } from '../bugs/evaluate.js';
import { DEFAULT_CHECK_PARAMS, REPORT_STRATEGIES } from '../bugs/meta.js';
import { reverseDiff } from '../bugs/reverse-diff.js';
import { DEFAULT_ALPHA, injectReward, solveRate, solverReward } from '../bugs/rewards.js';
import { BugbenchError, UsageError } from '../errors.js';
import type { RunEngine } from '../sandbox/engines.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { currentProcess } from '../process-identity.js';
import { readJsonFile } from '../store/json-file.js';
import { bugFolder, checkFolder, type AttemptRecord, type BugRecord, type ClusterRunInfo, type RunRecord, type SolveSummary } from '../store/records.js';
import { openStore, RecordNotFoundError, type Store } from '../store/store.js';
import { analyseBug, readReport } from './analysis.js';
import { forEachConcurrently } from './pool.js';
import type { PolicyName } from './policy.js';
import { runRollout } from './rollout.js';
import type { Placement } from './placement.js';
import { PreparedSandboxes } from './prepared-sandboxes.js';
import { openRunEngines, type RunEngineEvent } from './run-engines.js';
import { buildStartingState } from './starting-state.js';

export type StatementKind = 'template' | 'report';

export interface SolveSettings extends ModelSettings {
  k: number;
  concurrency: number;
  policy: PolicyName;
  /** The offline solver (ignored by the anthropic policy). */
  solver: SolverChoice;
  model?: string;
  /** The task text; by default the bug report for BugPilot's strategies, the template for the others. */
  statement?: StatementKind;
  alpha: number;
  seed: number;
  maxSteps: number;
  maxTokens?: number;
  budgetUsd?: number;
  /** Dollars the whole run may spend, shared by its attempts. */
  runBudgetUsd?: number;
}

export interface SolveHooks {
  store?: Store;
  signal?: AbortSignal;
  docker?: Docker;
  onRun?: (runId: string) => void;
  onEvent?: (attemptId: string, event: RolloutEvent) => void;
  onAttempt?: (attempt: AttemptSummary) => void;
  /** The run's engines: images copied onto them, attempts placed, engines lost and back. */
  onEngineEvent?: (event: RunEngineEvent) => void;
}

export const DEFAULT_SOLVE: Omit<SolveSettings, 'policy'> = {
  k: 8,
  concurrency: 2,
  solver: 'mix',
  alpha: DEFAULT_ALPHA,
  seed: 0,
  maxSteps: 100,
};

export interface AttemptSummary {
  id: string;
  solver: string;
  status: AttemptRecord['status'];
  solved: boolean;
  failing: string[];
  patchPath: string | null;
  trajectory: string;
  reward: 1 | -1 | null;
  evalRunMs: number | null;
}

export interface SolveResult {
  bugId: string;
  runId: string;
  attempts: AttemptSummary[];
  solveRate: number;
  injectReward: number;
  alpha: number;
}

export class SolveRefusedError extends BugbenchError {
  constructor(message: string) {
    super('BB_SOLVE_REFUSED', message);
  }
}

/** The bug's fix from the solver's starting state: its gold patch (higher order) or the reverse of bug_inject.diff. */
export function fixOf(store: Store, bug: BugRecord, artifact: BugArtifact): string {
  const gold = store.abs(join(bugFolder(bug.id), BUG_FILES.goldPatch));
  return bug.order > 1 && existsSync(gold) ? readFileSync(gold, 'utf8') : reverseDiff(artifact.bugInject);
}

/** The task text a solver gets: the template around the reversed weakening, or the bug report. */
export async function statementOf(store: Store, bug: BugRecord, artifact: BugArtifact, kind: StatementKind, settings: { policy: PolicyName; model?: string }): Promise<string> {
  if (kind === 'template') return templateStatement(reverseDiff(artifact.testWeaken));
  if (!readReport(store, bug.id)) await analyseBug(store, bug.id, settings);
  return readReport(store, bug.id)!;
}

/** FAIL_TO_PASS and PASS_TO_PASS of the bug's latest valid check. */
export function specOf(store: Store, bug: BugRecord): TestSpec {
  const folder = checkFolder(bug);
  const tests = folder ? readJsonFile<{ FAIL_TO_PASS: string[]; PASS_TO_PASS: string[] }>(store.abs(join(folder, 'tests.json'))) : undefined;
  if (!bug.check?.valid || !tests) {
    throw new SolveRefusedError(`bug ${bug.id} is ${bug.status}${bug.check?.failedCheck ? ` (check ${bug.check.failedCheck} failed)` : ''}: only a bug that passed its checks can be solved`);
  }
  return { failToPass: tests.FAIL_TO_PASS, passToPass: tests.PASS_TO_PASS };
}

function makeSolverModel(settings: SolveSettings, kind: OfflineSolver, fix: string, oracleTests: string | undefined, seed: number): Model {
  return policyModel(settings) ?? new OfflineModel(`offline/${kind}`, offlineSolver({ kind, fix, oracleTests, rng: new Rng(seed) }));
}

/** What every attempt of a run shares: the tests that judge it, the task text, the fix the offline solvers know, who solves each attempt. */
interface SolveContext {
  bug: BugRecord;
  artifact: BugArtifact;
  spec: TestSpec;
  statementKind: StatementKind;
  system: string;
  task: string;
  fix: string;
  oracleTests: string | undefined;
  plan: OfflineSolver[];
}

async function solveContext(store: Store, bugId: string, settings: SolveSettings, verifyModel = false): Promise<SolveContext> {
  const bug = store.get('bugs', bugId);
  if (!bug) throw new RecordNotFoundError('bugs', bugId);
  if (!Number.isInteger(settings.k) || settings.k < 1) throw new UsageError('-k must be a positive integer');
  const spec = specOf(store, bug);
  const artifact = loadArtifact(store.abs(bugFolder(bug.id)));
  if (verifyModel) await verifyPolicy(settings);
  const statementKind = settings.statement ?? (REPORT_STRATEGIES.includes(bug.strategy) ? 'report' : 'template');
  const statement = await statementOf(store, bug, artifact, statementKind, settings);
  const { system, task } = solverPrompts(statement);
  // The template statement carries the oracle tests; an offline solver puts them in as an agent would.
  const oracleTests = statementKind === 'template' ? reverseDiff(artifact.testWeaken) : undefined;
  const plan = solverPlan(settings.solver, settings.k, new Rng(settings.seed));
  return { bug, artifact, spec, statementKind, system, task, fix: fixOf(store, bug, artifact), oracleTests, plan };
}

/** Records a solve run and its K pending attempts; returns the run id. */
export async function createSolveRun(store: Store, bugId: string, settings: SolveSettings, cluster?: ClusterRunInfo): Promise<string> {
  const { bug, statementKind, plan } = await solveContext(store, bugId, settings, true);
  const runId = `solve-${new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${randomUUID().slice(0, 4)}`;
  const who = (i: number) => identityOf(settings, `offline/${plan[i]}`);
  const now = new Date().toISOString();
  mkdirSync(store.abs(join('runs', runId)), { recursive: true });
  const { k, concurrency, solver, alpha, seed, model, baseUrl, priceIn, priceOut, maxSteps, maxTokens, budgetUsd, runBudgetUsd } = settings;
  store.transact((tx) => {
    tx.put('runs', {
      id: runId,
      kind: 'solve',
      status: 'running',
      image: bug.image,
      strategy: usesModel(settings.policy) ? 'model' : solver,
      policy: settings.policy,
      model: identityOf(settings, `offline/${solver}`).model,
      baseUrl: identityOf(settings, '').baseUrl,
      n: k,
      // Never the key: a resumed or clustered run reads it again.
      options: JSON.parse(JSON.stringify({ bugId, k, concurrency, solver, statement: statementKind, alpha, seed, model, baseUrl, priceIn, priceOut, maxSteps, maxTokens, budgetUsd, runBudgetUsd })),
      owner: currentProcess(),
      startedAt: now,
      finishedAt: null,
      error: null,
      ...(cluster ? { cluster } : {}),
    });
    for (let i = 0; i < k; i++) {
      const id = `${runId}-a${i + 1}`;
      const trajectory = join('runs', runId, `${id}.jsonl`);
      tx.put('rollouts', { id, runId, role: 'solver', index: i, status: 'pending', steps: 0, costUsd: 0, tokens: 0, durationMs: 0, trajectory, bugId: null, detail: null, startedAt: null, finishedAt: null });
      tx.put('attempts', {
        id,
        bugId,
        runId,
        index: i,
        solver: who(i).model,
        policy: settings.policy,
        baseUrl: who(i).baseUrl,
        statement: statementKind,
        status: 'pending',
        solved: null,
        failing: [],
        reward: null,
        patch: null,
        evalLog: null,
        evalRunMs: null,
        detail: null,
        createdAt: now,
      });
    }
  });
  return runId;
}

/** The settings a solve run was recorded with. */
function recordedSettings(run: RunRecord): SolveSettings & { bugId: string } {
  const options = run.options as unknown as Omit<SolveSettings, 'policy'> & { bugId: string };
  return { ...DEFAULT_SOLVE, ...options, policy: run.policy as PolicyName };
}

export async function solveBug(bugId: string, options: SolveSettings & SolveHooks): Promise<SolveResult> {
  const store = options.store ?? openStore();
  const runId = await createSolveRun(store, bugId, options);
  options.onRun?.(runId);
  await runAttempts(store, runId, [...Array(options.k).keys()], options);
  store.transact((tx) => tx.patch('runs', runId, { status: options.signal?.aborted ? 'cancelled' : 'finished', finishedAt: new Date().toISOString() }));
  return summarizeSolve(store, runId);
}

/** One cluster task's share of a recorded solve run (attempts by index), with this node's engine; the run's status is left to whoever follows the array. */
export async function runSolveShare(runId: string, indices: number[], hooks: SolveHooks & { where?: RolloutWhere } = {}): Promise<void> {
  const store = hooks.store ?? openStore();
  const run = store.get('runs', runId);
  if (!run || run.kind !== 'solve') throw new RecordNotFoundError('runs', runId);
  await runAttempts(store, runId, indices, { ...recordedSettings(run), ...hooks });
}

/** Runs the attempts of a recorded run (by index), C at a time, placed on the run's engines; returns once their containers are gone. */
async function runAttempts(store: Store, runId: string, indices: number[], options: SolveSettings & SolveHooks & { where?: RolloutWhere }): Promise<void> {
  const run = store.get('runs', runId)!;
  const { bug, artifact, spec, statementKind, system, task, fix, oracleTests, plan } = await solveContext(store, (run.options as { bugId: string }).bugId, options);
  // Each engine the attempts are placed on gets its own attempt containers (the next one made ahead) and
  // two evaluation containers kept for the run, made when the engine first gets an attempt.
  const engines = await openRunEngines(bug.image, { docker: options.docker, signal: options.signal, onEvent: options.onEngineEvent });
  const sides = new Map<string, { containers: PreparedSandboxes; evaluation: CheckContext }>();
  const sideOf = (engine: RunEngine) => {
    let side = sides.get(engine.name);
    if (!side) {
      const evaluation = new CheckContext({
        artifact,
        image: bug.image,
        baseCommit: bug.baseCommit,
        params: { ...DEFAULT_CHECK_PARAMS, ...artifact.meta?.params },
        logDir: store.abs(join('runs', runId, 'eval')),
        parallelism: 2,
        runId: `${runId}-eval-${engine.name}`,
        docker: engine.docker,
      });
      const containers = new PreparedSandboxes(async () => {
        const sandbox = await Sandbox.create({ image: bug.image, runId: `${runId}-attempt`, docker: engine.docker });
        try {
          await buildStartingState(sandbox, artifact, bug.baseCommit);
        } catch (error) {
          await sandbox.remove().catch(() => undefined);
          throw error;
        }
        return sandbox;
      }, indices.length);
      evaluation.warm();
      side = { containers, evaluation };
      sides.set(engine.name, side);
    }
    return side;
  };
  const runBudget = new Budget(options.runBudgetUsd);
  runBudget.add(store.all('rollouts').reduce((sum, r) => (r.runId === runId ? sum + r.costUsd : sum), 0));
  const closeSides = () => Promise.all([...sides.values()].flatMap((side) => [side.evaluation.close(), side.containers.close()]));
  const onAbort = () => void closeSides();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Attempt containers are removed while the next attempts go on; the run ends once they are gone.
  const cleanups: Promise<void>[] = [];
  // The run's concurrency bounds the agents at work: an attempt gives its turn to the next one once its
  // agent ends, and its evaluation goes on in the evaluation lanes meanwhile (the run ends once all are judged).
  // An attempt retried after its engine was lost runs again at once, bounded by the engines' slots alone.
  const judging: Promise<void>[] = [];
  const attempt = (i: number) =>
    new Promise<void>((agentEnded, failed) => {
      const whole = engines.run(`${runId}-a${i + 1}`, (placement) => attemptOn(i, placement, agentEnded));
      judging.push(whole);
      whole.then(() => agentEnded(), failed);
    });
  const attemptOn = async (i: number, placement: Placement, agentEnded: () => void) => {
    const id = `${runId}-a${i + 1}`;
    const { containers, evaluation } = sideOf(placement.engine);
    const patchPath = store.abs(join('runs', runId, `${id}.diff`));
    store.transact((tx) => tx.patch('attempts', id, { status: 'running' }));
    const outcome = await runRollout({
      store,
      id,
      runId,
      role: 'solver',
      strategy: statementKind,
      policy: options.policy,
      image: bug.image,
      model: makeSolverModel(options, plan[i]!, fix, oracleTests, rolloutSeed(options.seed, i)),
      system,
      task,
      maxSteps: options.maxSteps,
      budget: new Budget(options.budgetUsd),
      runBudget,
      sandbox: () => containers.take(),
      submit: (sandbox) => ({ definition: SOLVER_SUBMIT, handle: solverSubmitHandler(sandbox, patchPath) }),
      signal: placement.signal,
      onEvent: options.onEvent ? (event) => options.onEvent!(id, event) : undefined,
      docker: placement.docker,
      where: { ...options.where, engine: placement.engine.name },
    });
    cleanups.push(outcome.cleanup);
    await placement.confirm(outcome.failure);
    agentEnded();
    let fields: Partial<AttemptRecord>;
    if (outcome.reason === 'submitted' && existsSync(patchPath)) {
      const judged = await evaluateInContext(evaluation, readFileSync(patchPath, 'utf8'), spec, id, i);
      // An evaluation cut off by a lost engine is not a verdict: the attempt runs again elsewhere.
      await placement.confirm();
      const cancelled = options.signal?.aborted === true && !judged.solved;
      fields = cancelled
        ? { status: 'cancelled', detail: 'the run was cancelled during the evaluation' }
        : {
            status: 'evaluated',
            solved: judged.solved,
            failing: judged.failing,
            reward: solverReward(judged.solved),
            patch: store.rel(patchPath),
            evalLog: judged.run ? store.rel(judged.run.logPath) : null,
            evalRunMs: judged.run?.durationMs ?? null,
            detail: judged.error ?? null,
          };
    } else if (outcome.reason === 'cancelled') {
      fields = { status: 'cancelled', detail: outcome.detail ?? null };
    } else {
      // An attempt that never submitted is a failed attempt (equation 2 gives it −1).
      fields = { status: 'unsubmitted', solved: false, failing: [...spec.failToPass, ...spec.passToPass], reward: -1, detail: outcome.detail ?? outcome.reason };
    }
    const record = store.transact((tx) => tx.patch('attempts', id, fields));
    options.onAttempt?.(attemptSummary(store, record));
  };
  try {
    await forEachConcurrently(indices, options.concurrency, attempt, options.signal);
    await Promise.all(judging);
  } finally {
    await Promise.allSettled(judging);
    options.signal?.removeEventListener('abort', onAbort);
    await Promise.all([closeSides(), ...cleanups]);
    await engines.close();
  }
}

function attemptSummary(store: Store, a: AttemptRecord): AttemptSummary {
  return {
    id: a.id,
    solver: a.solver,
    status: a.status,
    solved: a.solved === true,
    failing: a.failing,
    patchPath: a.patch ? store.abs(a.patch) : null,
    trajectory: store.abs(join('runs', a.runId, `${a.id}.jsonl`)),
    reward: a.reward,
    evalRunMs: a.evalRunMs,
  };
}

/** Counts the run's attempts (cancelled and interrupted ones do not count) and records the solve summary on the bug. */
export function summarizeSolve(store: Store, runId: string): SolveResult {
  const run = store.get('runs', runId);
  if (!run || run.kind !== 'solve') throw new RecordNotFoundError('runs', runId);
  const { bugId, alpha } = recordedSettings(run);
  const attempts = store
    .all('attempts')
    .filter((a) => a.runId === runId)
    .sort((a, b) => a.index - b.index);
  const counted = attempts.filter((a) => a.status === 'evaluated' || a.status === 'unsubmitted');
  const solved = counted.filter((a) => a.solved).length;
  const s = solveRate(solved, counted.length);
  const reward = injectReward(true, s, alpha);
  if (counted.length > 0) {
    const at = new Date().toISOString();
    const summary: SolveSummary = { runId, attempts: counted.length, solved, solveRate: s, injectReward: reward, alpha, at };
    store.transact((tx) => tx.patch('bugs', bugId, { solve: summary, updatedAt: at }));
  }
  return { bugId, runId, attempts: attempts.map((a) => attemptSummary(store, a)), solveRate: s, injectReward: reward, alpha };
}
