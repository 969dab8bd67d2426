/**
 * What the engine pool (placement.ts) and its users agree on: what it asks of
 * an engine, what a piece of work gets, the events it reports and the
 * settings it takes.
 */
import type { RunEngine } from '../sandbox/engines.js';

/** What the pool asks of an engine. */
export interface PoolEngine {
  readonly name: string;
  readonly slots: number;
  ping(timeoutMs: number): Promise<void>;
  /** A container of this process, of one of `works`, that the engine stopped; undefined if none. */
  stoppedWork(works: readonly string[], timeoutMs: number): Promise<string | undefined>;
  /** Removes what `works` left on the engine; how many containers went. */
  reap(works: readonly string[]): Promise<number>;
}

export type PlacementEvent =
  | { type: 'placed'; work: string; engine: string; attempt: number }
  | { type: 'engine-down'; engine: string; detail: string; lost: string[] }
  | { type: 'engine-back'; engine: string; reaped: number }
  /** The engine refused a container; the work is tried again once `retryInMs` has passed (elsewhere if another engine is free). */
  | { type: 'engine-refused'; engine: string; work: string; detail: string; retryInMs: number }
  /** The engine is left out of the run; `left` engines remain. */
  | { type: 'engine-broken'; engine: string; detail: string; left: number };

/** One piece of work on one engine. */
export interface Placement<E extends PoolEngine = RunEngine> {
  engine: E;
  /** The engine port of the placement's engine, to make sandboxes on. */
  port: E extends { port: infer D } ? D : undefined;
  /** Aborts when the run is cancelled or the engine is lost. */
  signal: AbortSignal;
  /**
   * Runs one step of the work (a rollout, a check, an evaluation) and then
   * confirms it: throws EngineLostError if the engine was lost, does not
   * answer now, or what ended the step (`failureOf` its result) is the
   * engine's fault; then the pool places the work again. Once the run is
   * cancelled the step's result is returned as it is.
   */
  step<T>(work: () => Promise<T>, failureOf?: (result: T) => unknown): Promise<T>;
}

export interface PoolOptions {
  signal?: AbortSignal;
  report?: (event: PlacementEvent) => void;
  probeMs?: number;
  pingTimeoutMs?: number;
  /** Failed probes in a row that make an engine down (default 2). */
  missedPings?: number;
  /** The first back-off (default 2 s); it doubles with each failure in a row, up to maxBackoffMs (30 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Engine failures in a row, with no work finished there in between, that leave an engine out (default 4). */
  maxFailures?: number;
  /** How long work may wait while every engine is down before it fails (default 60 s). */
  allDownGraceMs?: number;
}

/** An engine's message without the parts that change from one container to the next (ids, pids, ports, times). */
export function refusalKey(detail: string): string {
  return detail
    .replace(/[0-9a-f]{12,64}/gi, '<id>')
    .replace(/\d{4,}/g, '<n>')
    .trim();
}
