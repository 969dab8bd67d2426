/**
 * What the checks share while judging one bug: its containers and its test
 * runs. Every run a check needs is named in run-plan.ts (the original run
 * twice, the buggy state several times, the weakened state, one revert per
 * changed file, the gold patch) and made at most once. Runs go to lanes
 * (check-lanes.ts), one container each: the first lane that is free takes the
 * run that waited longest, so no lane idles while another has work queued. When all checks are
 * wanted, `prefetch()` asks for every run at once so the lanes work in
 * parallel while the checks read the results in order.
 */
import { randomUUID } from 'node:crypto';
import type { ContainerEngine } from '../sandbox/port.js';
import type { ExecOptions } from '../sandbox/sandbox.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { CheckLanes } from './check-lanes.js';
import type { BugArtifact } from './artifact.js';
import type { CheckEvent, CheckName } from './check-types.js';
import { fileOf, touchedPaths, type FileChange } from './diff.js';
import { DEFAULT_BUGGY_RUNS, type CheckParams } from './meta.js';
import { OriginalRunCache } from './original-cache.js';
import { gatherEvidence, type GatheredEvidence } from './check-evidence.js';
import { stateScript, type StateLayers } from './repo-state.js';
import { runProblem, usable } from './run-problems.js';
import { goldIsOriginal, planRuns, plannedRerun, revertsRun, WEAKENED_RERUN, type PlannedRun, type RunPlan } from './run-plan.js';
import type { FlakyTest } from './evidence.js';
import { runTests, TEST_COMMAND, type RunRecord } from './test-run.js';
import { brokenTests, keptTests } from './test-results.js';
import { goImportsCommand, readGoImports, type GoImports } from './revert-coverage.js';
import { analyzeWeakening } from './weakening-probe.js';
import { ParserHost } from './parser-host.js';
import { summarizeWeakening, weakeningScope, type WeakeningAnalysis, type WeakeningScope, type WeakeningSummary } from './weakening.js';

export { fileOf } from './diff.js';

export interface CheckSetup {
  artifact: BugArtifact;
  image: string;
  baseCommit: string;
  params: CheckParams;
  logDir: string;
  /** Containers working at once (the bug's own container included). */
  parallelism: number;
  /**
   * Let test scripts of different containers run at the same time. Off by
   * default: the containers then take turns on the scripts (a lock on a shared
   * volume) while the others build states and parse logs, which pays on a
   * machine with few cores.
   */
  parallelTests?: boolean;
  /** A new container for every run, as SWE-bench's harness does (for comparison only). */
  freshContainerPerRun?: boolean;
  runId?: string;
  /** The engine the containers go on (default: the default engine). */
  engine?: ContainerEngine;
  /** Where the original run is kept for other bugs of the same image, script and test files (none: made for each bug). */
  originalCache?: string;
  onEvent?: (event: CheckEvent) => void;
  /** The work's cancellation (its containers are removed by whoever aborts it): runs killed after it are cancelled, not failed. */
  signal?: AbortSignal;
}


/** Who a run belongs to, for its events: a check, or a patch evaluation. */
export type RunOwner = CheckName | 'evaluate';

export class CheckContext {
  readonly runId: string;
  private readonly lanes: CheckLanes;
  private runs = new Map<string, Promise<RunRecord>>();
  /** The check now running, for labelling the events of its own commands. */
  current: CheckName = 'test-files';

  /** Where the parser runs if the image has no python3; its container is made only then. */
  private readonly parserHost: ParserHost;

  constructor(readonly setup: CheckSetup) {
    this.runId = setup.runId ?? `check-${randomUUID().slice(0, 8)}`;
    this.parserHost = new ParserHost({ runId: this.runId, parser: setup.artifact.testParser, engine: setup.engine });
    this.lanes = new CheckLanes({ ...setup, runId: this.runId });
  }

  get artifact(): BugArtifact {
    return this.setup.artifact;
  }

  get params(): CheckParams {
    return this.setup.params;
  }

  get base(): string {
    return this.setup.baseCommit;
  }

  emit(event: CheckEvent): void {
    this.setup.onEvent?.(event);
  }

  /** Opens every lane now, so the first runs do not wait for the containers (check-lanes.ts). */
  warm(): void {
    this.lanes.warm();
  }

  /** The bug's own container (lane 0). */
  sandbox(): Promise<Sandbox> {
    return this.lanes.first();
  }

  /** A command of the check's own (not the artifact's) in the bug's container. */
  async exec(command: string, options: ExecOptions = {}) {
    return (await this.sandbox()).exec(command, { timeoutMs: 60_000, ...options });
  }

  private async runNow(sandbox: Sandbox, check: RunOwner, label: string, layers: StateLayers, state: string): Promise<RunRecord> {
    this.emit({ type: 'run-started', check, label, command: TEST_COMMAND });
    const run = await runTests(sandbox, {
      prepare: stateScript(this.artifact, this.base, layers),
      sharedDir: this.lanes.sharedDir(),
      lock: this.lanes.lockPath(),
      lockQueue: this.lanes.count - 1,
      label,
      state,
      timeoutMs: this.params.testTimeoutSec * 1000,
      logDir: this.setup.logDir,
      onOutput: (stream, text) => this.emit({ type: 'run-output', check, label, stream, text }),
      parserHost: this.parserHost,
      signal: this.setup.signal,
    });
    this.lanes.observe(run);
    this.emit({ type: 'run-finished', check, run });
    return run;
  }

  /** Builds a state in the first free lane's container (or, for comparison, a fresh one) and runs the tests in it. */
  run(check: RunOwner, label: string, layers: StateLayers, state = label): Promise<RunRecord> {
    return this.lanes.submit((sandbox) => this.runNow(sandbox, check, label, layers, state));
  }

  private shared(plan: PlannedRun): Promise<RunRecord> {
    let run = this.runs.get(plan.label);
    if (!run) {
      run = this.run(plan.check, plan.label, plan.layers, plan.state);
      run.catch(() => undefined); // a prefetched run nobody reads must not crash the process
      this.runs.set(plan.label, run);
    }
    return run;
  }

  /** The code files of the bug, each reverted alone by inverse mutation. */
  codeChanges(): FileChange[] {
    const testFiles = new Set(this.artifact.testFiles);
    return this.artifact.bugChanges.filter((c) => !testFiles.has(fileOf(c)));
  }

  /** How many runs of the buggy code must show the bug's failures again. */
  get buggyRunCount(): number {
    return Math.max(1, this.params.buggyRuns ?? DEFAULT_BUGGY_RUNS);
  }

  private planned?: RunPlan;

  plan(): RunPlan {
    this.planned ??= planRuns(this.artifact, this.codeChanges());
    return this.planned;
  }

  private original?: Promise<RunRecord>;
  /** Settles once the original run is read from the workspace or in line, so the runs after it queue behind it. */
  private originalQueued: Promise<void> = Promise.resolve();

  /** The original code's run: kept from another bug of the same image, script and test files when there is one. */
  originalRun(): Promise<RunRecord> {
    if (!this.original) {
      let queued = () => {};
      this.originalQueued = new Promise<void>((resolve) => (queued = resolve));
      this.original = this.cachedOriginal(this.plan().original, 1, queued);
      this.original.catch(() => undefined);
    }
    return this.original;
  }

  /**
   * The `observation`-th run of the original state, read from the workspace's
   * cache, or from another check of this process that is making it (waited
   * for), or made (and kept) under `plan`.
   */
  private async cachedOriginal(plan: PlannedRun, observation: number, queued: () => void): Promise<RunRecord> {
    const dir = this.setup.originalCache;
    const engine = this.setup.engine ?? defaultContainerEngine();
    const key = dir ? await OriginalRunCache.key(engine, this.setup.image, { baseCommit: this.base, artifact: this.artifact, timeoutSec: this.params.testTimeoutSec }) : undefined;
    const cache = dir && key ? new OriginalRunCache(dir) : undefined;
    // While another check of this process makes the run, the runs after this one need not wait for it.
    const kept = cache && key ? await cache.readOrAwait(key, this.setup.logDir, observation, { signal: this.setup.signal, waiting: queued }) : undefined;
    if (kept) {
      // The kept run tells how many processors the script needs before any run of this bug could.
      this.lanes.observe(kept);
      queued();
      this.emit({ type: 'run-started', check: plan.check, label: plan.label, command: TEST_COMMAND });
      this.emit({ type: 'run-finished', check: plan.check, run: kept });
      return kept;
    }
    const pending = this.shared(plan);
    queued();
    return cache && key ? cache.keep(key, observation, pending) : pending;
  }

  /** The first run of the buggy state, with the oracle (unweakened) tests. */
  buggyRun(): Promise<RunRecord> {
    return this.shared(this.plan().buggy);
  }

  /** The n-th run of the buggy state (n ≥ 2), made when the evidence asks for it. */
  buggyRerun(n: number): Promise<RunRecord> {
    return this.shared(plannedRerun(n));
  }

  /** Whether inverse mutation needs the revert runs (see run-plan.ts). */
  get revertsRun(): boolean {
    return revertsRun(this.plan(), this.artifact);
  }

  private gathered?: Promise<GatheredEvidence>;

  /** What every run of the bug says about its results repeating, with the reruns it took (check-evidence.ts). */
  evidence(): Promise<GatheredEvidence> {
    this.gathered ??= gatherEvidence(this);
    this.gathered.catch(() => undefined);
    return this.gathered;
  }

  weakenedRun(): Promise<RunRecord> {
    return this.shared(this.plan().weakened);
  }

  /** The weakened state's second run, made when a test it leaves alone fails there but passed in the buggy state. */
  weakenedRerun(): Promise<RunRecord> {
    return this.shared(WEAKENED_RERUN);
  }

  /** Tests found flaky after determinism weighed the runs (a second look at the weakened state), to drop like its own. */
  readonly laterFlaky: FlakyTest[] = [];

  /** Every test found flaky so far: by the determinism evidence, then by later checks. */
  async flakyTests(): Promise<FlakyTest[]> {
    return [...(await this.evidence()).flaky, ...this.laterFlaky];
  }

  /** The run with only `change` reverted, for inverse mutation. */
  revertRun(change: FileChange): Promise<RunRecord> {
    const plan = this.plan().reverts.find((p) => p.label === `revert ${fileOf(change)}`);
    if (!plan) throw new Error(`no revert run for ${fileOf(change)}`);
    return this.shared(plan);
  }

  private gold?: Promise<RunRecord>;

  /** The gold patch's evaluation run; when its tree is the original's, the original state's second run, shared like the first. */
  goldRun(): Promise<RunRecord> {
    if (!goldIsOriginal(this.artifact)) return this.shared(this.plan().gold);
    if (!this.gold) {
      this.gold = this.cachedOriginal(this.plan().gold, 2, () => {});
      this.gold.catch(() => undefined);
    }
    return this.gold;
  }

  private goGraph?: Promise<GoImports | undefined>;

  /**
   * A Go module's imports at the base commit with those the bug adds, read in
   * the bug's container (revert-coverage.ts); undefined when there is none to
   * read, or no two reverts of Go files for it to cover.
   */
  goImports(): Promise<GoImports | undefined> {
    this.goGraph ??= (async () => {
      const code = this.codeChanges();
      if (this.artifact.predChanges.length > 0 || code.length < 2 || !code.some((c) => fileOf(c).endsWith('.go'))) return undefined;
      const result = await this.exec(goImportsCommand(this.base));
      if (result.exitCode !== 0 || result.truncated || result.timedOut) return undefined;
      return readGoImports(result.stdout, this.base, this.artifact.bugInject);
    })().catch(() => undefined);
    return this.goGraph;
  }

  private analysis?: Promise<WeakeningAnalysis | undefined>;

  /** Which test functions test_weaken.diff deletes and changes, read in the bug's container; undefined if it cannot tell. */
  weakeningAnalysis(): Promise<WeakeningAnalysis | undefined> {
    this.analysis ??= this.sandbox()
      .then((sandbox) => analyzeWeakening(sandbox, this.base, touchedPaths(this.artifact.weakenChanges)))
      .catch(() => undefined);
    return this.analysis;
  }

  /** Which tests the weakening touches and which it removes (directly, through inheritance, or by name in other languages). */
  async weakeningScope(): Promise<WeakeningScope> {
    return weakeningScope(touchedPaths(this.artifact.weakenChanges), await this.weakeningAnalysis(), this.artifact.testWeaken);
  }

  /** What the weakening hides, counted in tests of the oracle suite (from runs already made; none is started for it). */
  async weakening(): Promise<WeakeningSummary> {
    const suiteOf = async (label: string) => {
      const record = await this.runs.get(label)?.catch(() => undefined);
      return record && !runProblem(record) ? Object.keys(record.results) : undefined;
    };
    const analysis = await this.weakeningAnalysis();
    const original = await this.original?.catch(() => undefined);
    const suite = original && !runProblem(original) ? Object.keys(original.results) : undefined;
    const weakened = analysis ? undefined : await suiteOf(this.plan().weakened.label);
    return summarizeWeakening(touchedPaths(this.artifact.weakenChanges), analysis, suite, weakened, this.artifact.testWeaken);
  }

  /** Starts every run the checks will need, spread over the lanes, cheapest refusal first; the reruns follow once the evidence asks. */
  prefetch(): void {
    const plan = this.plan();
    void this.originalRun();
    void this.originalQueued.then(() => {
      for (const run of [plan.buggy, plan.weakened, ...(this.revertsRun ? plan.reverts : [])]) this.shared(run);
      void this.goldRun();
      void this.evidence();
    });
    void this.weakeningAnalysis();
    void this.goImports();
  }

  /**
   * FAIL_TO_PASS and PASS_TO_PASS, from the original and the first buggy run;
   * an UnusableRunError when either has no trustworthy map (timed out, no
   * parser output, a parser that contradicts the log).
   */
  async testSpec(): Promise<{ failToPass: string[]; passToPass: string[] }> {
    const [original, buggy] = await Promise.all([this.originalRun(), this.buggyRun()]);
    usable(original);
    usable(buggy);
    return { failToPass: brokenTests(original.results, buggy.results), passToPass: keptTests(original.results, buggy.results) };
  }

  /** The spec if its runs already happened and can be trusted, without running anything. */
  async knownSpec(): Promise<{ failToPass: string[]; passToPass: string[] } | undefined> {
    if (!this.original || !this.runs.has('buggy')) return undefined;
    try {
      return await this.testSpec();
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.lanes.close(), this.parserHost.close()]);
  }
}
