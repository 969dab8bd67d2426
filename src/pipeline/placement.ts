/**
 * Placing a run's work on its Docker engines. Each piece of work (a rollout,
 * or the checks of the bug it made) takes one slot of the engine with the most
 * free slots (ties: the engine that got the least work so far, then the order
 * given), and gives it back when done. While work runs, every engine in use is
 * pinged each second; an engine that stops answering is marked down, the work
 * on it is aborted and placed again on another engine (the caller's work sees
 * `EngineLostError`). When a lost engine answers again, the containers and
 * volumes of the work it lost are removed before it gets new work.
 */
import type Docker from 'dockerode';
import { BugbenchError, EngineUnreachableError, errorMessage } from '../errors.js';
import { isEngineFailure, withTimeout } from '../sandbox/docker.js';
import type { RunEngine } from '../sandbox/engines.js';
import { labelBelongsTo, reapWork } from '../sandbox/orphans.js';
import { LABEL_OWNER_PID, LABEL_OWNER_START, LABEL_RUN, ownerLabels } from '../sandbox/owner.js';

/** The work's engine stopped answering: the pool places it again elsewhere. */
export class EngineLostError extends BugbenchError {
  constructor(readonly engine: string, detail: string) {
    super('BB_ENGINE_LOST', `Docker engine ${engine} stopped answering (${detail})`);
  }
}

export type PlacementEvent =
  | { type: 'placed'; work: string; engine: string; attempt: number }
  | { type: 'engine-down'; engine: string; detail: string; lost: string[] }
  | { type: 'engine-back'; engine: string; reaped: number };

/** One piece of work on one engine. */
export interface Placement {
  engine: RunEngine;
  docker: Docker;
  /** Aborts when the run is cancelled or the engine is lost. */
  signal: AbortSignal;
  /** Throws EngineLostError if the engine was lost, does not answer now, or `failure` (what ended the work) came from the engine itself. */
  confirm(failure?: unknown): Promise<void>;
}

interface EngineState {
  engine: RunEngine;
  busy: number;
  placed: number;
  down: boolean;
  downSince: number;
  /** A lost engine gets work again only once it answers and this time has come (backing off when it keeps failing). */
  retryAt: number;
  losses: number;
  /** Every work id placed here: once the engine is lost, their containers are reaped when it is back. */
  history: Set<string>;
  leases: Set<Lease>;
}

interface Lease {
  work: string;
  state: EngineState;
  controller: AbortController;
  lostDetail?: string;
}

export interface PoolOptions {
  signal?: AbortSignal;
  onEvent?: (event: PlacementEvent) => void;
  probeMs?: number;
  pingTimeoutMs?: number;
  /** How long work may wait while every engine is down before the run fails. */
  allDownGraceMs?: number;
}

export class EnginePool {
  private readonly states: EngineState[];
  private waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private reaps: Promise<unknown>[] = [];

  constructor(engines: RunEngine[], private readonly options: PoolOptions = {}) {
    if (engines.length === 0) throw new EngineUnreachableError('every configured engine', 'none answered');
    this.states = engines.map((engine) => ({ engine, busy: 0, placed: 0, down: false, downSince: 0, retryAt: 0, losses: 0, history: new Set(), leases: new Set() }));
    options.signal?.addEventListener('abort', () => this.wake(), { once: true });
  }

  get engines(): RunEngine[] {
    return this.states.map((s) => s.engine);
  }

  /** How much work each engine was given (placements, retries included). */
  placements(): Record<string, number> {
    return Object.fromEntries(this.states.map((s) => [s.engine.name, s.placed]));
  }

  /** Runs `work` on an engine, again on another one each time its engine is lost. */
  async run<T>(id: string, work: (placement: Placement) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const lease = await this.acquire(id);
      this.options.onEvent?.({ type: 'placed', work: id, engine: lease.state.engine.name, attempt });
      const onAbort = () => lease.controller.abort();
      this.options.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await work(this.placementOf(lease));
        if (lease.lostDetail === undefined) return result;
      } catch (error) {
        // An error from an engine that no longer answers is the engine's loss, not the work's failure.
        if (lease.lostDetail === undefined) {
          const problem = error instanceof EngineLostError || isEngineFailure(error) ? errorMessage(error) : await this.problem(lease.state);
          if (!problem || this.options.signal?.aborted) throw error;
          this.markDown(lease.state, problem);
        }
      } finally {
        this.options.signal?.removeEventListener('abort', onAbort);
        this.release(lease);
      }
    }
  }

  private placementOf(lease: Lease): Placement {
    return {
      engine: lease.state.engine,
      docker: lease.state.engine.docker,
      signal: lease.controller.signal,
      confirm: async (failure?: unknown) => {
        if (lease.lostDetail === undefined && failure !== undefined && isEngineFailure(failure)) this.markDown(lease.state, `it failed the work: ${errorMessage(failure)}`);
        if (lease.lostDetail === undefined) {
          const problem = await this.problem(lease.state);
          if (problem) this.markDown(lease.state, problem);
        }
        if (lease.lostDetail !== undefined) throw new EngineLostError(lease.state.engine.name, lease.lostDetail);
      },
    };
  }

  private pick(): EngineState | undefined {
    let best: EngineState | undefined;
    for (const s of this.states) {
      if (s.down || s.busy >= s.engine.slots) continue;
      const free = s.engine.slots - s.busy;
      if (!best || free > best.engine.slots - best.busy || (free === best.engine.slots - best.busy && s.placed < best.placed)) best = s;
    }
    return best;
  }

  private async acquire(work: string): Promise<Lease> {
    for (;;) {
      // Once the run is cancelled, work only starts to see the cancellation: any live engine will do.
      const state = this.pick() ?? (this.options.signal?.aborted ? this.states.find((s) => !s.down) : undefined);
      if (state) {
        state.busy++;
        state.placed++;
        state.history.add(work);
        const lease: Lease = { work, state, controller: new AbortController() };
        state.leases.add(lease);
        this.startProbing();
        return lease;
      }
      const grace = this.options.allDownGraceMs ?? 60_000;
      if (this.states.every((s) => s.down) && Date.now() - Math.max(...this.states.map((s) => s.downSince)) > grace) {
        throw new EngineUnreachableError(this.states.map((s) => `${s.engine.host} (${s.engine.name})`).join(', '), `every engine of the run stopped answering for over ${grace / 1000} s`);
      }
      this.startProbing();
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private release(lease: Lease): void {
    lease.state.busy--;
    lease.state.leases.delete(lease);
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private async answers(state: EngineState): Promise<boolean> {
    try {
      await withTimeout(state.engine.docker.ping(), this.options.pingTimeoutMs ?? 3000, 'timed out');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * What is wrong with an engine, if anything: it does not answer, or it stopped
   * containers of work still under way (bugbench's containers never stop by
   * themselves, so the engine is shutting down or was restarted).
   */
  private async problem(state: EngineState): Promise<string | undefined> {
    if (!(await this.answers(state))) return 'it did not answer a ping';
    const works = [...state.leases].map((l) => l.work);
    if (works.length === 0) return undefined;
    try {
      const me = ownerLabels();
      const stopped = await withTimeout(
        state.engine.docker.listContainers({
          all: true,
          filters: { status: ['exited', 'dead'], label: [`${LABEL_OWNER_PID}=${me[LABEL_OWNER_PID]}`, `${LABEL_OWNER_START}=${me[LABEL_OWNER_START]}`] },
        }),
        this.options.pingTimeoutMs ?? 3000,
        'timed out',
      );
      const hit = stopped.find((c) => labelBelongsTo(c.Labels?.[LABEL_RUN] ?? '', works));
      return hit ? `it stopped container ${hit.Id.slice(0, 12)} of ${hit.Labels?.[LABEL_RUN]} (shutting down or restarted)` : undefined;
    } catch (error) {
      return `it did not list containers: ${errorMessage(error)}`;
    }
  }

  private markDown(state: EngineState, detail: string): void {
    if (state.down) return;
    state.down = true;
    state.downSince = Date.now();
    state.losses++;
    state.retryAt = state.downSince + Math.min(30_000, 2000 * 2 ** (state.losses - 1));
    const lost = [...state.leases];
    for (const lease of lost) {
      lease.lostDetail = detail;
      lease.controller.abort();
    }
    this.options.onEvent?.({ type: 'engine-down', engine: state.engine.name, detail, lost: lost.map((l) => l.work) });
    this.startProbing();
  }

  private startProbing(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.probe(), this.options.probeMs ?? 1000);
  }

  /** Pings the engines that have work or are down; stops itself when there is nothing to watch. */
  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      const watched = this.states.filter((s) => s.down || s.leases.size > 0);
      await Promise.all(
        watched.map(async (state) => {
          if (!state.down) {
            const problem = await this.problem(state);
            if (problem) this.markDown(state, problem);
          } else if (Date.now() >= state.retryAt && (await this.answers(state))) await this.comeBack(state);
        }),
      );
      if (this.states.every((s) => !s.down && s.leases.size === 0) && this.waiters.length === 0) this.stopProbing();
      else if (this.waiters.length > 0) this.wake();
    } finally {
      this.probing = false;
    }
  }

  /** A lost engine answers again: its lost work's containers go, then it takes work again. */
  private async comeBack(state: EngineState): Promise<void> {
    let reaped = 0;
    const reaping = reapWork(state.engine.docker, [...state.history]).then((r) => (reaped = r.removed.length));
    this.reaps.push(reaping.catch(() => undefined));
    try {
      await reaping;
    } catch (error) {
      this.options.onEvent?.({ type: 'engine-down', engine: state.engine.name, detail: `back, but its lost containers could not be removed: ${errorMessage(error)}`, lost: [] });
      return;
    }
    state.history.clear();
    state.down = false;
    this.options.onEvent?.({ type: 'engine-back', engine: state.engine.name, reaped });
    this.wake();
  }

  private stopProbing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Engines still down: what the run left on them is removed at the next start of bugbench (its owner is then gone). */
  down(): string[] {
    return this.states.filter((s) => s.down).map((s) => s.engine.name);
  }

  /** Stops watching; an engine that is back by now has its lost work reaped first. */
  async close(): Promise<void> {
    this.stopProbing();
    await Promise.all(this.reaps);
    await Promise.all(this.states.filter((s) => s.down).map(async (s) => (await this.answers(s)) && this.comeBack(s)));
    await Promise.all(this.reaps);
  }
}
