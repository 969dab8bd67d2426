/**
 * Solving a bug: K solver attempts (C at a time), each an agent rollout in a
 * fresh container holding the solver's starting state, through the same
 * runner, tools, events and trajectories as injection. The attempt's patch is
 * the diff against its one commit; it is evaluated as SPEC §5 says in two
 * evaluation containers kept for the whole run. The solve rate gives the
 * injection reward (equation 1), each attempt its solver reward (equation 2).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Budget } from '../agent/budget.js';
import type { Model } from '../agent/model.js';
import { OfflineModel } from '../agent/offline/offline-model.js';
import { identityOf, policyModel, usesModel, verifyPolicy, type ModelSettings } from '../agent/policies.js';
import { Rng, rolloutSeed } from '../agent/offline/rng.js';
import { offlineSolver, solverPlan, type OfflineSolver, type SolverChoice } from '../agent/offline/solver.js';
import { solverPrompts, templateStatement } from '../agent/prompts.js';
import { solverSubmitHandler } from '../agent/solver-submit.js';
import { SOLVER_SUBMIT } from '../agent/tools.js';
import { BUG_FILES, loadArtifact, type BugArtifact } from '../bugs/artifact.js';
import { BugImages } from '../bugs/bug-image.js';
import { evaluateInContext, type TestSpec } from '../bugs/evaluate.js';
import { REPORT_STRATEGIES } from '../bugs/meta.js';
import { reverseDiff } from '../bugs/reverse-diff.js';
import { DEFAULT_ALPHA, injectReward, solveRate, solverReward } from '../bugs/rewards.js';
import { BugbenchError, UsageError } from '../errors.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { readJsonFile } from '../json-file.js';
import { bugFolder, checkFolder, type AttemptRecord, type BugRecord, type ClusterRunInfo, type RunRecord, type SolveSummary } from '../store/records.js';
import { RecordNotFoundError, type Store } from '../store/store.js';
import { analyseBug, readReport } from './analysis.js';
import { ignore, type AttemptSummary, type Deps, type Report } from './events.js';
import type { RunPlacement as Placement } from './run-engines.js';
import type { PolicyName } from './policy.js';
import { runRollout } from './rollout.js';
import { finishRun, newRunId, recordRun } from './run-orchestrator.js';
import { openRunScope, type RunScope } from './run-scope.js';
import { SolveSides } from './solve-sides.js';

export type { AttemptSummary } from './events.js';

export type StatementKind = 'template' | 'report';

/** What a solve run is: plain data, kept in its record as it is. */
export interface SolveSettings extends ModelSettings {
  bugId: string;
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

export const DEFAULT_SOLVE: Omit<SolveSettings, 'policy' | 'bugId'> = {
  k: 8,
  concurrency: 2,
  solver: 'mix',
  alpha: DEFAULT_ALPHA,
  seed: 0,
  maxSteps: 100,
};

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
export async function statementOf(of: { store: Store; bug: BugRecord; artifact: BugArtifact }, kind: StatementKind, settings: { policy: PolicyName; model?: string }): Promise<string> {
  const { store, bug, artifact } = of;
  if (kind === 'template') return templateStatement(reverseDiff(artifact.testWeaken));
  if (!readReport(store, bug.id)) await analyseBug({ store, id: bug.id }, settings);
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

/** The attempt's model: the policy's, or the offline solver of its kind (`fix` and `oracleTests` are what it knows). */
function makeSolverModel(settings: SolveSettings, solver: { kind: OfflineSolver; fix: string; oracleTests: string | undefined; seed: number }): Model {
  const { kind, fix, oracleTests, seed } = solver;
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

async function solveContext(store: Store, settings: SolveSettings, verifyModel = false): Promise<SolveContext> {
  const recorded = store.get('bugs', settings.bugId);
  if (!recorded) throw new RecordNotFoundError('bugs', settings.bugId);
  if (!Number.isInteger(settings.k) || settings.k < 1) throw new UsageError('-k must be a positive integer');
  const spec = specOf(store, recorded);
  const artifact = loadArtifact(store.abs(bugFolder(recorded.id)));
  // Solved on the image it was checked on: after a rebuild of its tag, the image the build kept (bugs/bug-image.ts).
  const { image } = await new BugImages(defaultContainerEngine(), true).of(recorded, artifact.meta?.image.id);
  const bug = image === recorded.image ? recorded : { ...recorded, image };
  if (verifyModel) await verifyPolicy(settings);
  const statementKind = settings.statement ?? (REPORT_STRATEGIES.includes(bug.strategy) ? 'report' : 'template');
  const statement = await statementOf({ store, bug, artifact }, statementKind, settings);
  const { system, task } = solverPrompts(statement);
  // The template statement carries the oracle tests; an offline solver puts them in as an agent would.
  const oracleTests = statementKind === 'template' ? reverseDiff(artifact.testWeaken) : undefined;
  const plan = solverPlan(settings.solver, settings.k, new Rng(settings.seed));
  return { bug, artifact, spec, statementKind, system, task, fix: fixOf(store, bug, artifact), oracleTests, plan };
}

/** Records a solve run and its K pending attempts; returns the run id. */
export async function createSolveRun(settings: SolveSettings, deps: Deps, cluster?: ClusterRunInfo): Promise<string> {
  const { store } = deps;
  // A duplicate is another bug's twin: its attempts (and a model's spend) belong with the bug it repeats.
  const asked = store.get('bugs', settings.bugId);
  if (asked?.status === 'duplicate') throw new SolveRefusedError(`bug ${asked.id} is a duplicate of ${asked.duplicateOf}: solve that one instead`);
  const { bug, statementKind, plan } = await solveContext(store, settings, true);
  const runId = newRunId('solve');
  const who = (i: number) => identityOf(settings, `offline/${plan[i]}`);
  const run = {
    kind: 'solve',
    image: bug.image,
    strategy: usesModel(settings.policy) ? 'model' : settings.solver,
    policy: settings.policy,
    model: identityOf(settings, `offline/${settings.solver}`).model,
    baseUrl: identityOf(settings, '').baseUrl,
    n: settings.k,
    options: { ...settings, statement: statementKind },
    ...(cluster ? { cluster } : {}),
  } as const;
  const now = new Date().toISOString();
  recordRun(store, { id: runId, run, rollouts: { role: 'solver', prefix: 'a' } }, (tx, ids) =>
    ids.forEach((id, i) =>
      tx.put('attempts', {
        id,
        bugId: bug.id,
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
      }),
    ),
  );
  return runId;
}

/** The settings a solve run was recorded with. */
function recordedSettings(run: RunRecord): SolveSettings {
  const options = run.options as unknown as Omit<SolveSettings, 'policy'>;
  return { ...DEFAULT_SOLVE, ...options, policy: run.policy as PolicyName };
}

export async function solveBug(settings: SolveSettings, deps: Deps, report: Report = ignore): Promise<SolveResult> {
  const runId = await createSolveRun(settings, deps);
  report({ type: 'run-started', runId, kind: 'solve' });
  await finishRun({ id: runId, store: deps.store, signal: deps.signal, report }, async () => runAttempts(await solveScope({ id: runId, settings }, deps, report), [...Array(settings.k).keys()]));
  return summarizeSolve(deps.store, runId);
}

/** One cluster task's share of a recorded solve run (attempts by index), with this node's engine; the run's status is left to whoever follows the array. */
export async function runSolveShare(share: { runId: string; indices: number[] }, deps: Deps, report: Report = ignore): Promise<void> {
  const { runId, indices } = share;
  const run = deps.store.get('runs', runId);
  if (!run || run.kind !== 'solve') throw new RecordNotFoundError('runs', runId);
  await runAttempts(await solveScope({ id: runId, settings: recordedSettings(run) }, deps, report), indices);
}

/** A solve run's scope: what every attempt shares (the bug, its tests, the task text) with it. */
type SolveScope = RunScope<SolveSettings> & { context: SolveContext };

async function solveScope(run: { id: string; settings: SolveSettings }, deps: Deps, report: Report): Promise<SolveScope> {
  const context = await solveContext(deps.store, run.settings);
  const scope = openRunScope({ ...run, images: [context.bug.image], concurrency: run.settings.concurrency }, deps, report);
  return Object.assign(scope, { context });
}

/**
 * Runs the attempts of a recorded run (by index), placed on the run's engines.
 * The run's concurrency bounds the agents at work: an attempt gives its turn
 * to the next once its agent ends, and its evaluation goes on meanwhile (the
 * run ends once all are judged). An attempt retried after its engine was lost
 * runs again at once, bounded by the engines' slots alone.
 */
async function runAttempts(scope: SolveScope, indices: number[]): Promise<void> {
  const { context } = scope;
  const sides = new SolveSides(scope.store, scope.id, context.bug, context.artifact, indices.length, scope.signal);
  const onAbort = () => void sides.close();
  scope.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await scope.each(indices, (i) =>
      new Promise<void>((agentEnded, failed) => {
        const whole = scope.place(`${scope.id}-a${i + 1}`, (placement) => attemptOn(scope, placement, { i, sides, agentEnded }));
        scope.linger(whole);
        whole.then(() => agentEnded(), failed);
      }),
    );
  } finally {
    scope.signal?.removeEventListener('abort', onAbort);
    await sides.close();
  }
}

/** One attempt of the run: its index, the run's evaluation sides, and what tells the run its agent ended (the next attempt may start). */
interface Attempt {
  i: number;
  sides: SolveSides;
  agentEnded: () => void;
}

/** One attempt on one placement: the agent in a prepared container, then its patch judged in the engine's evaluation lanes. */
async function attemptOn(scope: SolveScope, placement: Placement, attempt: Attempt): Promise<void> {
  const { id: runId, settings, context, store, report } = scope;
  const { i } = attempt;
  const id = `${runId}-a${i + 1}`;
  const { containers, evaluation } = attempt.sides.of(placement.engine);
  const patchPath = store.abs(join('runs', runId, `${id}.diff`));
  store.transact((tx) => tx.patch('attempts', id, { status: 'running' }));
  const outcome = await placement.step(async () => {
    const ended = await runRollout({
      store,
      id,
      runId,
      role: 'solver',
      strategy: context.statementKind,
      policy: settings.policy,
      image: context.bug.image,
      model: makeSolverModel(settings, { kind: context.plan[i]!, fix: context.fix, oracleTests: context.oracleTests, seed: rolloutSeed(settings.seed, i) }),
      system: context.system,
      task: context.task,
      maxSteps: settings.maxSteps,
      budget: new Budget(settings.budgetUsd),
      runBudget: scope.budget,
      sandbox: () => containers.take(),
      submit: (sandbox) => ({ definition: SOLVER_SUBMIT, handle: solverSubmitHandler(sandbox, patchPath) }),
      signal: placement.signal,
      report: (event) => report({ type: 'rollout', rolloutId: id, event }),
      engine: placement.port,
      where: { ...scope.where, engine: placement.engine.name },
    });
    scope.cleanup(ended.cleanup);
    return ended;
  }, (ended) => ended.failure);
  attempt.agentEnded();
  let fields: Partial<AttemptRecord>;
  if (outcome.reason === 'submitted' && existsSync(patchPath)) {
    // An evaluation cut off by a lost engine is not a verdict: the attempt runs again elsewhere.
    const judged = await placement.step(() => evaluateInContext(evaluation, readFileSync(patchPath, 'utf8'), context.spec, id));
    const cancelled = judged.cancelled === true || (scope.signal?.aborted === true && !judged.solved);
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
    fields = { status: 'unsubmitted', solved: false, failing: [...context.spec.failToPass, ...context.spec.passToPass], reward: -1, detail: outcome.detail ?? outcome.reason };
  }
  const record = store.transact((tx) => tx.patch('attempts', id, fields));
  report({ type: 'attempt', attempt: attemptSummary(store, record) });
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
  // A run cut short (cancelled, interrupted) leaves the bug's rate as it was: a rate over the attempts it got to is
  // not the rate over k; a whole `solve` writes it.
  const whole = attempts.every((a) => a.status === 'evaluated' || a.status === 'unsubmitted');
  if (counted.length > 0 && whole) {
    const at = new Date().toISOString();
    const summary: SolveSummary = { runId, attempts: counted.length, solved, solveRate: s, injectReward: reward, alpha, at };
    store.transact((tx) => tx.patch('bugs', bugId, { solve: summary, updatedAt: at }));
  }
  return { bugId, runId, attempts: attempts.map((a) => attemptSummary(store, a)), solveRate: s, injectReward: reward, alpha };
}
