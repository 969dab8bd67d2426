/**
 * What the checks share while judging one bug: its container (created once,
 * reset by git between runs), extra containers for parallel inverse-mutation
 * runs, and the test runs several checks read (each run at most once).
 */
import { randomUUID } from 'node:crypto';
import type { ExecOptions } from '../sandbox/sandbox.js';
import { Sandbox } from '../sandbox/sandbox.js';
import type { BugArtifact } from './artifact.js';
import type { CheckEvent, CheckName } from './check-types.js';
import type { CheckParams } from './meta.js';
import { buildState, type StateLayers } from './repo-state.js';
import { installArtifactScripts, runTests, TEST_COMMAND, type RunRecord } from './test-run.js';
import { brokenTests, keptTests } from './test-results.js';

export interface CheckSetup {
  artifact: BugArtifact;
  image: string;
  baseCommit: string;
  params: CheckParams;
  logDir: string;
  /** Containers used at once by inverse mutation (the bug's own container included). */
  parallelism: number;
  runId?: string;
  onEvent?: (event: CheckEvent) => void;
}

export class CheckContext {
  readonly runId: string;
  private main?: Promise<Sandbox>;
  private extras: Promise<Sandbox>[] = [];
  private runs = new Map<string, Promise<RunRecord>>();
  private turns = new Map<Sandbox, Promise<unknown>>();
  /** The check now running, for labelling events. */
  current: CheckName = 'test-files';

  constructor(readonly setup: CheckSetup) {
    this.runId = setup.runId ?? `check-${randomUUID().slice(0, 8)}`;
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

  private async createSandbox(): Promise<Sandbox> {
    const sandbox = await Sandbox.create({ image: this.setup.image, runId: this.runId });
    try {
      await installArtifactScripts(sandbox, this.artifact);
    } catch (error) {
      await sandbox.remove();
      throw error;
    }
    return sandbox;
  }

  sandbox(): Promise<Sandbox> {
    this.main ??= this.createSandbox();
    return this.main;
  }

  /** `count` containers for parallel work: the main one plus extras, created on first use. */
  async sandboxes(count: number): Promise<Sandbox[]> {
    while (this.extras.length < count - 1) this.extras.push(this.createSandbox());
    return Promise.all([this.sandbox(), ...this.extras.slice(0, count - 1)]);
  }

  /** A command of the check's own (not the artifact's) in the main container. */
  async exec(command: string, options: ExecOptions = {}) {
    return (await this.sandbox()).exec(command, { timeoutMs: 60_000, ...options });
  }

  /** Builds a state and runs the tests in it, with events. Runs in one container take turns. */
  runIn(sandbox: Sandbox, label: string, layers: StateLayers): Promise<RunRecord> {
    const previous = this.turns.get(sandbox) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.runNow(sandbox, label, layers));
    this.turns.set(sandbox, run);
    return run;
  }

  private async runNow(sandbox: Sandbox, label: string, layers: StateLayers): Promise<RunRecord> {
    const check = this.current;
    await buildState(sandbox, this.artifact, this.base, layers);
    this.emit({ type: 'run-started', check, label, command: TEST_COMMAND });
    const run = await runTests(sandbox, {
      label,
      timeoutMs: this.params.testTimeoutSec * 1000,
      logDir: this.setup.logDir,
      onOutput: (stream, text) => this.emit({ type: 'run-output', check, label, stream, text }),
    });
    this.emit({ type: 'run-finished', check, run });
    return run;
  }

  /** A run shared between checks, done once. */
  shared(label: string, layers: StateLayers): Promise<RunRecord> {
    let run = this.runs.get(label);
    if (!run) {
      run = this.sandbox().then((sandbox) => this.runIn(sandbox, label, layers));
      this.runs.set(label, run);
    }
    return run;
  }

  originalRun(): Promise<RunRecord> {
    return this.shared('original', {});
  }

  secondOriginalRun(): Promise<RunRecord> {
    return this.shared('original (second run)', {});
  }

  /** The buggy state with the oracle (unweakened) tests. */
  buggyRun(): Promise<RunRecord> {
    return this.shared('buggy', { bug: true, restoreTests: true });
  }

  weakenedRun(): Promise<RunRecord> {
    return this.shared('buggy + weakened tests', { bug: true, weaken: true });
  }

  /** FAIL_TO_PASS and PASS_TO_PASS, once both the original and the buggy runs are in. */
  async testSpec(): Promise<{ failToPass: string[]; passToPass: string[] }> {
    const [original, buggy] = await Promise.all([this.originalRun(), this.buggyRun()]);
    return { failToPass: brokenTests(original.results, buggy.results), passToPass: keptTests(original.results, buggy.results) };
  }

  /** The spec if its runs already happened, without running anything. */
  async knownSpec(): Promise<{ failToPass: string[]; passToPass: string[] } | undefined> {
    if (!this.runs.has('original') || !this.runs.has('buggy')) return undefined;
    try {
      return await this.testSpec();
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    const all = [this.main, ...this.extras].filter((s): s is Promise<Sandbox> => s !== undefined);
    await Promise.all(all.map((s) => s.then((sandbox) => sandbox.remove()).catch(() => undefined)));
  }
}
