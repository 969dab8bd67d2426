/**
 * Placing a run's work on its engines, and what happens when an engine fails.
 *
 * Each piece of work (a rollout, or the checks of the bug it made) takes one
 * slot of the engine with the most free slots (ties: the engine that got the
 * least work so far, then the order given) and gives it back when done.
 *
 * While work runs, the engines in use are probed every second. An engine that
 * misses two pings in a row (one slow answer under load is not enough), that
 * answers with server errors, or that stopped containers of work under way
 * (it is shutting down or restarted) is down: its work is aborted and placed
 * again elsewhere (the work sees EngineLostError). A write of bugbench's that
 * found the connection closed (EPIPE) is not enough: the engine is down then
 * only if it does not answer either (own-failures.ts). A down engine gets work
 * again once it answers and its back-off (2 s, doubling, at most 30 s) has
 * passed, after the containers of the work it lost are removed.
 *
 * An engine that answers but refuses to create or start a container rests for
 * the back-off and the work is tried again; the same refusal twice in a row is
 * its setup, not bad luck: it is left out of the run with the engine's words,
 * and so is an engine that fails four times in a row with no work finished in
 * between. Work fails with EnginesBrokenError once no engine is left, and with
 * EngineUnreachableError once every engine has been down for a minute.
 *
 * A cancelled run retries nothing: waiting work starts at once on any engine
 * so it sees the cancellation, and work that fails is not placed again.
 *
 * The pool needs three things of an engine (PoolEngine, in pool-contract.ts
 * with the rest of what its users see), so it runs without Docker in tests.
 */
import { EngineError, EngineLostError, EnginesBrokenError, EngineUnreachableError, errorMessage } from '../errors.js';
import { isEngineFailure } from '../sandbox/engine-errors.js';
import { isOwnWriteFailure } from './own-failures.js';
import { refusalKey, type Placement, type PlacementEvent, type PoolEngine, type PoolOptions } from './pool-contract.js';

export { EngineLostError } from '../errors.js';
export { refusalKey, type Placement, type PlacementEvent, type PoolEngine, type PoolOptions } from './pool-contract.js';

interface EngineState<E> {
  engine: E;
  busy: number;
  placed: number;
  down: boolean;
  /** No new work before this time: the back-off of a lost engine, or the rest after a refusal. */
  retryAt: number;
  missed: number;
  failures: number;
  /** The last refusal, normalised, to tell a repeated one. */
  refusal?: string;
  /** Why it is left out of the run. */
  broken?: string;
  /** Every work id placed here: once the engine is lost, their containers are reaped when it is back. */
  history: Set<string>;
  leases: Set<Lease<E>>;
}

interface Lease<E> {
  work: string;
  state: EngineState<E>;
  controller: AbortController;
  /** Set once the engine failed this work: it is placed again. */
  lostDetail?: string;
}

export class EnginePool<E extends PoolEngine> {
  private readonly states: EngineState<E>[];
  private waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private reaps: Promise<unknown>[] = [];
  private allDownSince: number | undefined;

  constructor(
    engines: E[],
    private readonly options: PoolOptions = {},
  ) {
    if (engines.length === 0) throw new EngineUnreachableError('every configured engine', 'none answered');
    this.states = engines.map((engine) => ({ engine, busy: 0, placed: 0, down: false, retryAt: 0, missed: 0, failures: 0, history: new Set(), leases: new Set() }));
    options.signal?.addEventListener('abort', () => this.wake(), { once: true });
  }

  get engines(): E[] {
    return this.states.map((s) => s.engine);
  }

  private get cancelled(): boolean {
    return this.options.signal?.aborted === true;
  }

  /** How much work each engine was given (placements, retries included). */
  placements(): Record<string, number> {
    return Object.fromEntries(this.states.map((s) => [s.engine.name, s.placed]));
  }

  /** Engines down or left out: what the run left on them is removed at the next start of bugbench (its owner is then gone). */
  down(): string[] {
    return this.states.filter((s) => s.down).map((s) => s.engine.name);
  }

  /** Runs `work` on an engine, again elsewhere (or later) each time its engine fails it. */
  async run<T>(id: string, work: (placement: Placement<E>) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const lease = await this.acquire(id);
      this.options.report?.({ type: 'placed', work: id, engine: lease.state.engine.name, attempt });
      const onAbort = () => lease.controller.abort();
      this.options.signal?.addEventListener('abort', onAbort, { once: true });
      if (this.cancelled) lease.controller.abort();
      try {
        const result = await work(this.placementOf(lease));
        if (lease.lostDetail === undefined) this.finishedWell(lease.state);
        if (lease.lostDetail === undefined || this.cancelled) return result;
      } catch (error) {
        // An error from an engine that failed is the engine's, not the work's.
        if (this.cancelled || (lease.lostDetail === undefined && !(await this.blame(lease, error)))) throw error;
      } finally {
        this.options.signal?.removeEventListener('abort', onAbort);
        this.release(lease);
      }
    }
  }

  private placementOf(lease: Lease<E>): Placement<E> {
    const { engine } = lease.state;
    return {
      engine,
      port: (engine as { port?: unknown }).port as Placement<E>['port'],
      signal: lease.controller.signal,
      step: async (work, failureOf) => {
        const result = await work();
        await this.confirm(lease, failureOf?.(result));
        return result;
      },
    };
  }

  /** After a step: whether the engine failed it (see Placement.step). */
  private async confirm(lease: Lease<E>, failure: unknown): Promise<void> {
    if (this.cancelled) return;
    if (lease.lostDetail === undefined && failure !== undefined && isEngineFailure(failure) && !isOwnWriteFailure(failure)) await this.blame(lease, failure);
    else if (lease.lostDetail === undefined) {
      const problem = await this.problem(lease.state);
      if (problem) this.markDown(lease.state, problem);
    }
    if (lease.lostDetail !== undefined) throw new EngineLostError(lease.state.engine.name, lease.lostDetail);
  }

  /** Whether the engine is to blame for `error`; if so, the engine is marked (refused, down or left out) and the lease lost. */
  private async blame(lease: Lease<E>, error: unknown): Promise<boolean> {
    const { state } = lease;
    // An engine that no longer answers did not refuse the container: it is down (seen when an
    // engine was stopped while a check was making one), and is watched until it is back.
    if (error instanceof EngineError && error.refusedContainer && !(error instanceof EngineLostError) && (await this.answers(state))) {
      lease.lostDetail = error.detail;
      this.refused(state, lease.work, error.detail);
      return true;
    }
    // A write of ours that found the connection closed is the engine's only if the engine does not answer now.
    const problem = isEngineFailure(error) && !isOwnWriteFailure(error) ? errorMessage(error) : await this.problem(state);
    if (!problem) return false;
    lease.lostDetail ??= problem;
    this.markDown(state, problem);
    return true;
  }

  private backoff(failures: number): number {
    return Math.min(this.options.maxBackoffMs ?? 30_000, (this.options.backoffMs ?? 2000) * 2 ** Math.max(0, failures - 1));
  }

  /** The engine answered but would not make a container. */
  private refused(state: EngineState<E>, work: string, detail: string): void {
    if (state.broken) return;
    state.failures++;
    const key = refusalKey(detail);
    if (state.refusal === key) return this.leaveOut(state, `it refused containers twice in a row with the same error: ${detail}`);
    if (state.failures >= (this.options.maxFailures ?? 4)) return this.leaveOut(state, `it failed ${state.failures} times in a row; the last time: ${detail}`);
    state.refusal = key;
    const retryInMs = this.backoff(state.failures);
    state.retryAt = Math.max(state.retryAt, Date.now() + retryInMs);
    this.options.report?.({ type: 'engine-refused', engine: state.engine.name, work, detail, retryInMs });
    this.startProbing();
  }

  private finishedWell(state: EngineState<E>): void {
    state.failures = 0;
    state.refusal = undefined;
  }

  private usable(state: EngineState<E>): boolean {
    return !state.down && !state.broken && Date.now() >= state.retryAt;
  }

  private pick(): EngineState<E> | undefined {
    let best: EngineState<E> | undefined;
    for (const s of this.states) {
      if (!this.usable(s) || s.busy >= s.engine.slots) continue;
      const free = s.engine.slots - s.busy;
      if (!best || free > best.engine.slots - best.busy || (free === best.engine.slots - best.busy && s.placed < best.placed)) best = s;
    }
    return best;
  }

  private lease(state: EngineState<E>, work: string): Lease<E> {
    state.busy++;
    state.placed++;
    state.history.add(work);
    const lease: Lease<E> = { work, state, controller: new AbortController() };
    state.leases.add(lease);
    this.startProbing();
    return lease;
  }

  private async acquire(work: string): Promise<Lease<E>> {
    for (;;) {
      // Once the run is cancelled, work only starts to see the cancellation: any engine will do.
      if (this.cancelled) return this.lease(this.states.find((s) => !s.broken && !s.down) ?? this.states.find((s) => !s.broken) ?? this.states[0]!, work);
      const state = this.pick();
      if (state) return this.lease(state, work);
      const left = this.states.filter((s) => !s.broken);
      if (left.length === 0) throw new EnginesBrokenError(this.states.map((s) => ({ engine: s.engine.name, detail: s.broken! })));
      const grace = this.options.allDownGraceMs ?? 60_000;
      if (left.every((s) => s.down)) {
        this.allDownSince ??= Date.now();
        if (Date.now() - this.allDownSince > grace) {
          throw new EngineUnreachableError(left.map((s) => s.engine.name).join(', '), `every engine of the run stopped answering for over ${grace / 1000} s`);
        }
      } else this.allDownSince = undefined;
      this.startProbing();
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private release(lease: Lease<E>): void {
    lease.state.busy--;
    lease.state.leases.delete(lease);
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private async answers(state: EngineState<E>): Promise<boolean> {
    try {
      await state.engine.ping(this.options.pingTimeoutMs ?? 3000);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * What is wrong with an engine now, if anything: it misses two pings in a
   * row, or it stopped containers of work still under way.
   */
  private async problem(state: EngineState<E>): Promise<string | undefined> {
    if (!(await this.answers(state)) && !(await this.answers(state))) return 'it did not answer two pings in a row';
    return this.stoppedWork(state);
  }

  private async stoppedWork(state: EngineState<E>): Promise<string | undefined> {
    const works = [...state.leases].map((l) => l.work);
    if (works.length === 0) return undefined;
    try {
      const hit = await state.engine.stoppedWork(works, this.options.pingTimeoutMs ?? 3000);
      return hit ? `it stopped ${hit} (shutting down or restarted)` : undefined;
    } catch {
      return undefined; // an answer that did not come counts at the next probe's ping
    }
  }

  private markDown(state: EngineState<E>, detail: string): void {
    if (state.down || state.broken) return;
    state.failures++;
    if (state.failures >= (this.options.maxFailures ?? 4)) return this.leaveOut(state, `it failed ${state.failures} times in a row; the last time: ${detail}`);
    state.down = true;
    state.missed = 0;
    state.retryAt = Date.now() + this.backoff(state.failures);
    const lost = this.loseLeases(state, detail);
    this.options.report?.({ type: 'engine-down', engine: state.engine.name, detail, lost });
    this.startProbing();
  }

  /** Leaves the engine out of the run: its work is placed elsewhere (or fails once no engine is left). */
  private leaveOut(state: EngineState<E>, detail: string): void {
    state.broken = detail;
    state.down = true;
    this.loseLeases(state, detail);
    this.options.report?.({ type: 'engine-broken', engine: state.engine.name, detail, left: this.states.filter((s) => !s.broken).length });
    this.wake();
  }

  private loseLeases(state: EngineState<E>, detail: string): string[] {
    const lost = [...state.leases];
    for (const lease of lost) {
      lease.lostDetail ??= detail;
      lease.controller.abort();
    }
    return lost.map((l) => l.work);
  }

  private startProbing(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.probe(), this.options.probeMs ?? 1000);
  }

  /** Probes the engines that have work or are down; stops itself when there is nothing to watch or wait for. */
  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      const watched = this.states.filter((s) => !s.broken && (s.down || s.leases.size > 0));
      await Promise.all(watched.map((state) => (state.down ? this.retry(state) : this.watch(state))));
      if (this.waiters.length > 0) this.wake();
      else if (this.states.every((s) => s.broken || (!s.down && s.leases.size === 0))) this.stopProbing();
    } finally {
      this.probing = false;
    }
  }

  private async watch(state: EngineState<E>): Promise<void> {
    if (!(await this.answers(state))) {
      state.missed++;
      if (state.missed >= (this.options.missedPings ?? 2)) this.markDown(state, `it did not answer ${state.missed} pings in a row`);
      return;
    }
    state.missed = 0;
    const stopped = await this.stoppedWork(state);
    if (stopped) this.markDown(state, stopped);
  }

  private async retry(state: EngineState<E>): Promise<void> {
    if (Date.now() >= state.retryAt && (await this.answers(state))) await this.comeBack(state);
  }

  /** A lost engine answers again: its lost work's containers go, then it takes work again. */
  private async comeBack(state: EngineState<E>): Promise<void> {
    const reaping = state.engine.reap([...state.history]);
    this.reaps.push(reaping.catch(() => undefined));
    let reaped: number;
    try {
      reaped = await reaping;
    } catch (error) {
      this.options.report?.({ type: 'engine-down', engine: state.engine.name, detail: `back, but its lost containers could not be removed: ${errorMessage(error)}`, lost: [] });
      return;
    }
    state.history.clear();
    state.down = false;
    state.missed = 0;
    this.options.report?.({ type: 'engine-back', engine: state.engine.name, reaped });
    this.wake();
  }

  private stopProbing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops watching; an engine that is back by now (or left out but answering) has its lost work reaped first. */
  async close(): Promise<void> {
    this.stopProbing();
    await Promise.all(this.reaps);
    await Promise.all(
      this.states
        .filter((s) => s.down && s.history.size > 0)
        .map(async (s) => {
          if (!(await this.answers(s))) return;
          if (s.broken) await s.engine.reap([...s.history]).catch(() => undefined);
          else await this.comeBack(s);
        }),
    );
    await Promise.all(this.reaps);
  }
}
