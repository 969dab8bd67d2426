/**
 * The nine consistency checks as a stepper: `step()` runs the next check and
 * returns its result, so a person can watch them one at a time; `runAll()` runs
 * the rest. After the first failure the remaining checks are skipped unless
 * `all` is set. One container serves every run of the bug and is removed by
 * `close()`. A check the engine failed (it could not create, start or exec a
 * container) gets no verdict: the session stops there with an EngineError.
 */
import { errorMessage, type EngineError } from '../errors.js';
import { asEngineError, isEngineFailure } from '../sandbox/engine-errors.js';
import { CheckContext, type CheckSetup } from './check-context.js';
import { CHECK_NAMES, type CheckName, type CheckOutcome, type CheckReport, type CheckResult } from './check-types.js';
import { bugValidityCheck, testWeakeningCheck } from './checks/bug-runs.js';
import { goldPatchCheck } from './checks/gold-patch.js';
import { inverseMutationCheck } from './checks/inverse-mutation.js';
import { determinismCheck } from './checks/determinism.js';
import { parserCheck, testScriptCheck } from './checks/original-runs.js';
import { bugScopeCheck, testFilesCheck } from './checks/static-checks.js';
import { parserTrust } from './run-problems.js';

const CHECKS: Record<CheckName, (ctx: CheckContext) => Promise<CheckOutcome>> = {
  'test-files': testFilesCheck,
  parser: parserCheck,
  'test-script': testScriptCheck,
  determinism: determinismCheck,
  'bug-scope': bugScopeCheck,
  'bug-validity': bugValidityCheck,
  'test-weakening': testWeakeningCheck,
  'inverse-mutation': inverseMutationCheck,
  'gold-patch': goldPatchCheck,
};

const CANCELLED: CheckOutcome = { verdict: 'cancelled', reason: 'the checks were cancelled', runs: [] };

export interface SessionOptions extends CheckSetup {
  /** Run every check even after one fails. */
  all?: boolean;
  /** Stops the checks: the containers are removed and the remaining checks are skipped. */
  signal?: AbortSignal;
}

export class CheckSession {
  private readonly ctx: CheckContext;
  readonly results: CheckResult[] = [];
  private failed = false;

  constructor(private readonly options: SessionOptions) {
    this.ctx = new CheckContext(options);
  }

  get done(): boolean {
    return this.results.length === CHECK_NAMES.length;
  }

  get next(): CheckName | undefined {
    return CHECK_NAMES[this.results.length];
  }

  /** Runs the next check; undefined once all nine have run. */
  async step(): Promise<CheckResult | undefined> {
    const name = this.next;
    if (!name) return undefined;
    const index = this.results.length;
    this.ctx.current = name;
    this.ctx.emit({ type: 'check-started', check: name, index });
    const started = performance.now();
    let outcome: CheckOutcome;
    if (this.options.signal?.aborted) {
      outcome = CANCELLED;
    } else if (this.failed && !this.options.all) {
      outcome = { verdict: 'skipped', reason: 'an earlier check failed', runs: [] };
    } else {
      try {
        outcome = await CHECKS[name](this.ctx);
      } catch (error) {
        // The engine's failure says nothing of the bug: the check ends without a verdict and the session with the error.
        if (isEngineFailure(error)) return this.stopForEngine(name, started, error);
        outcome = { verdict: 'fail', reason: errorMessage(error), runs: [] };
      }
      // A check whose runs were killed by the cancellation judged nothing.
      if (this.options.signal?.aborted && outcome.verdict !== 'pass') outcome = { ...CANCELLED, runs: outcome.runs };
    }
    const result: CheckResult = { name, ...outcome, durationMs: Math.round(performance.now() - started) };
    if (result.verdict === 'fail') this.failed = true;
    this.results.push(result);
    this.ctx.emit({ type: 'check-finished', result });
    return result;
  }

  /**
   * Records the check the engine stopped as cancelled (its reason names no
   * engine text: the error that ends the session carries that, once) and
   * throws that error as an EngineError.
   */
  private stopForEngine(name: CheckName, started: number, error: unknown): never {
    const failure = asEngineError(error, 'exec') as EngineError;
    const result: CheckResult = { name, verdict: 'cancelled', reason: `no verdict: ${failure.summary}`, runs: [], durationMs: Math.round(performance.now() - started) };
    this.results.push(result);
    this.ctx.emit({ type: 'check-finished', result });
    throw failure;
  }

  /** Runs the remaining checks; their test runs start at once, spread over the containers. */
  async runAll(): Promise<CheckReport> {
    if (!this.options.signal?.aborted) this.ctx.prefetch();
    while (await this.step());
    return this.report();
  }

  /** The verdict so far; valid only when all nine ran and passed. */
  async report(): Promise<CheckReport> {
    const valid = this.done && this.results.every((r) => r.verdict === 'pass');
    const failed = this.results.some((r) => r.verdict === 'fail');
    // A buggy state that does not repeat has no FAIL_TO_PASS worth showing either.
    const determinism = this.results.find((r) => r.name === 'determinism')?.verdict;
    const repeats = determinism !== 'fail';
    const raw = valid ? await this.ctx.testSpec() : repeats ? await this.ctx.knownSpec() : undefined;
    // The flaky tests, once determinism has weighed the runs (asking earlier would start runs nobody needs).
    const weighed = determinism === 'pass' || determinism === 'fail' ? await this.ctx.evidence().catch(() => undefined) : undefined;
    const flaky = [...(weighed?.flaky ?? []), ...this.ctx.laterFlaky];
    const dropped = new Set(flaky.map((f) => f.id));
    const spec = raw && { failToPass: raw.failToPass, passToPass: raw.passToPass.filter((id) => !dropped.has(id)) };
    const weakening = this.options.signal?.aborted ? null : await this.ctx.weakening().catch(() => null);
    return {
      valid,
      cancelled: !valid && !failed && (this.options.signal?.aborted === true || this.results.some((r) => r.verdict === 'cancelled')),
      checks: this.results,
      FAIL_TO_PASS: spec?.failToPass ?? [],
      PASS_TO_PASS: spec?.passToPass ?? [],
      flaky,
      parser: parserTrust(this.results.flatMap((r) => r.runs)),
      weakening,
    };
  }

  close(): Promise<void> {
    return this.ctx.close();
  }
}

/** Runs all checks on an artifact and cleans up. */
export async function checkArtifact(options: SessionOptions): Promise<CheckReport> {
  const session = new CheckSession(options);
  // Removing the containers ends the runs under way; the checks waiting on them fail, the rest are skipped.
  const onAbort = () => void session.close();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await session.runAll();
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await session.close();
  }
}
