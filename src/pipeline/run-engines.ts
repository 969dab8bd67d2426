/**
 * The engines of one run: every configured engine that answers, the run's
 * images put on each of them first (copied from one that has it), and the pool
 * that places the run's work.
 */
import type { ContainerEngine } from '../sandbox/port.js';
import { EngineUnreachableError, errorMessage } from '../errors.js';
import { engineSpecs, openEngine, runEngine, type RunEngine } from '../sandbox/engines.js';
import { ensureImageOnEngines, type ImageCopyEvent } from '../sandbox/docker-api/image-copy.js';
import { EnginePool, type Placement, type PlacementEvent, type PoolOptions } from './placement.js';

export type RunEngineEvent = ImageCopyEvent | PlacementEvent | { type: 'engine-skipped'; engine: string; detail: string };

/** A piece of a run's work on one of its engines. */
export type RunPlacement = Placement<RunEngine>;

export interface RunEngineOptions {
  /** One given engine instead of the configured ones (tests, callers that chose already). */
  engine?: ContainerEngine;
  signal?: AbortSignal;
  report?: (event: RunEngineEvent) => void;
  /** The pool's timings (tests). */
  pool?: Omit<PoolOptions, 'signal' | 'report'>;
}

/** The configured engines that answer, in order; a single engine with no slot count is limited by the run's concurrency alone. */
export async function liveEngines(options: RunEngineOptions = {}): Promise<RunEngine[]> {
  if (options.engine) {
    const engine = runEngine({ name: 'e1', host: 'given' }, options.engine, await options.engine.kind());
    return [{ ...engine, slots: Infinity }];
  }
  const specs = engineSpecs();
  const opened = await Promise.all(
    specs.map(async (spec) => {
      try {
        return await openEngine(spec);
      } catch (error) {
        options.report?.({ type: 'engine-skipped', engine: spec.name, detail: errorMessage(error) });
        return undefined;
      }
    }),
  );
  const engines = opened.filter((e): e is RunEngine => e !== undefined);
  if (engines.length === 0) throw new EngineUnreachableError(specs.map((s) => s.host).join(', '), 'none of the configured engines answered');
  if (specs.length === 1 && specs[0]!.slots === undefined) engines[0]!.slots = Infinity;
  return engines;
}

/** Opens the run's engines, makes sure each of `images` is on each, and returns the pool that places work on them. */
export async function openRunEngines(images: readonly string[], options: RunEngineOptions = {}): Promise<EnginePool<RunEngine>> {
  const engines = await liveEngines(options);
  if (engines.length > 1) for (const image of images) await ensureImageOnEngines(image, engines.map((e) => ({ name: e.name, engine: e.port })), options.report);
  return new EnginePool(engines, { ...options.pool, signal: options.signal, report: options.report });
}
