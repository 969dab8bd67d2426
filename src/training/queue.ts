/**
 * The training queue's front door: open an engine by name with the configured
 * settings, and ask whether the configured cluster engine answers.
 *
 *   const queue = openQueue('slurm');
 *   const { handle } = await queue.submit(spec);   // keep {engine, handle, key, last state}
 *   const status = await queue.status(handle);
 */
import { TrainingNotConfiguredError, errorMessage } from '../errors.js';
import { LocalQueue } from './local/engine.js';
import { RayQueue } from './ray/engine.js';
import { loadTrainingSettings, type TrainingSettings } from './settings.js';
import { SlurmQueue } from './slurm/engine.js';
import { ENGINE_NAMES, type EngineHealth, type EngineName, type TrainingQueue } from './types.js';

export function openQueue(engine: EngineName, settings: TrainingSettings = loadTrainingSettings()): TrainingQueue {
  switch (engine) {
    case 'slurm':
      return new SlurmQueue(settings.slurm);
    case 'ray':
      return new RayQueue(settings.ray);
    case 'local':
      return new LocalQueue(settings.local.dir);
    default:
      throw new TrainingNotConfiguredError(`unknown training engine "${engine as string}"; use one of ${ENGINE_NAMES.join(', ')}`);
  }
}

/** The engine to use when none is named: the configured one, else none. */
export function defaultEngine(settings: TrainingSettings = loadTrainingSettings()): EngineName | undefined {
  return settings.engine;
}

export interface ClusterHealth {
  ok: boolean;
  /** The engine checked; absent when none is configured. */
  engine?: EngineName;
  detail: string;
}

/**
 * Whether the configured cluster engine answers (the `cluster` line of
 * `bugbench doctor`). Never throws: a missing or broken setting is a detail.
 */
export async function clusterHealth(load: () => TrainingSettings = () => loadTrainingSettings()): Promise<ClusterHealth> {
  let settings: TrainingSettings;
  try {
    settings = load();
  } catch (error) {
    return { ok: false, detail: errorMessage(error) };
  }
  const engine = settings.engine;
  if (!engine) {
    return {
      ok: false,
      detail: 'not configured: set SLURMRESTD_URL or RAY_ADDRESS (or training.* in bugbench.config.json), or start a local Slurm with scripts/slurm-up',
    };
  }
  let health: EngineHealth;
  try {
    health = await openQueue(engine, settings).health();
  } catch (error) {
    return { ok: false, engine, detail: errorMessage(error) };
  }
  return { ok: health.ok, engine, detail: health.detail };
}
