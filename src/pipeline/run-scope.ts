/**
 * One run's scope: what its work runs with, opened once (by a run, a resume or
 * a cluster task's share) and handed to every step as one argument — the run's
 * id and settings, the store, the report, the signal, the run's budget (what
 * earlier tries of it spent counted), its engines (`place`) and what outlives
 * an item's turn (`cleanup`, `linger`). The engines open when the work starts
 * (`each`) and close, after every container removal, when it is done.
 */
import type { RolloutWhere } from '../agent/events.js';
import { Budget } from '../agent/budget.js';
import { BugbenchError } from '../errors.js';
import type { RunEngine } from '../sandbox/engines.js';
import type { Store } from '../store/store.js';
import type { Deps, Report } from './events.js';
import type { EnginePool } from './placement.js';
import { forEachConcurrently } from './pool.js';
import type { RunPlacement } from './run-engines.js';
import { openRunEngines } from './run-engines.js';

/** What the scope needs of a run's settings. */
export interface ScopeSettings {
  /** Dollars the whole run may spend. */
  runBudgetUsd?: number;
}

export interface RunOpening<S extends ScopeSettings> {
  id: string;
  settings: S;
  /** The images the work runs on: put on every engine of the run before work is placed. */
  images: readonly string[];
  /** Items at work at once. */
  concurrency: number;
}

export interface RunScope<S extends ScopeSettings = ScopeSettings> {
  readonly id: string;
  readonly settings: S;
  readonly store: Store;
  readonly report: Report;
  readonly signal?: AbortSignal;
  /** Where this process runs (a cluster task and its node). */
  readonly where?: RolloutWhere;
  /** The run's budget, shared by its rollouts. */
  readonly budget: Budget;
  /** Runs `work` on one of the run's engines, again elsewhere each time an engine fails it (placement.ts); only within `each`. */
  place<T>(workId: string, work: (placement: RunPlacement) => Promise<T>): Promise<T>;
  /** A container being removed; the run ends once it is gone. */
  cleanup(removal: Promise<void>): void;
  /** Work that goes on after an item gave up its turn (a patch being judged); the run ends once it is done, and fails if it fails. */
  linger(work: Promise<void>): void;
  /**
   * Opens the run's engines (its images copied where missing), runs `work` on
   * the items, `concurrency` at a time, and returns once every item, all it
   * left lingering and every container removal are done.
   */
  each<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void>;
}

/** Work placed before the run's engines were opened: a mistake in bugbench, not in what the user asked. */
export class RunScopeError extends BugbenchError {
  constructor(message: string) {
    super('BB_RUN_SCOPE', `${message}; this is a bug in bugbench: please report it`);
  }
}

/** What a run spent so far: its rollouts, and the analyses of the bugs it made (paid from its budget too). */
function spentSoFar(store: Store, runId: string): number {
  const rollouts = store.all('rollouts').reduce((sum, r) => (r.runId === runId ? sum + r.costUsd : sum), 0);
  const analyses = store.all('bugs').reduce((sum, b) => (b.runId === runId && b.order === 1 ? sum + (b.analysis?.costUsd ?? 0) : sum), 0);
  return rollouts + analyses;
}

export function openRunScope<S extends ScopeSettings>(opening: RunOpening<S>, deps: Deps, report: Report): RunScope<S> {
  const budget = new Budget(opening.settings.runBudgetUsd);
  budget.add(spentSoFar(deps.store, opening.id));
  let engines: EnginePool<RunEngine> | undefined;
  const removals: Promise<void>[] = [];
  const lingering: Promise<void>[] = [];
  return {
    id: opening.id,
    settings: opening.settings,
    store: deps.store,
    report,
    signal: deps.signal,
    where: deps.where,
    budget,
    place: (workId, work) => {
      if (!engines) throw new RunScopeError(`work ${workId} of run ${opening.id} was placed before the run's engines were opened`);
      return engines.run(workId, work);
    },
    cleanup: (removal) => void removals.push(removal.catch(() => undefined)),
    linger: (work) => {
      work.catch(() => undefined); // awaited below; a failure while other items run must not go unhandled
      lingering.push(work);
    },
    each: async (items, work) => {
      engines = await openRunEngines(opening.images, { engine: deps.engine, signal: deps.signal, report: (event) => report({ type: 'engine', event }) });
      try {
        await forEachConcurrently({ items, concurrency: opening.concurrency, signal: deps.signal }, work);
        await Promise.all(lingering);
      } finally {
        await Promise.allSettled(lingering);
        await Promise.all(removals);
        await engines.close();
      }
    },
  };
}
