/**
 * What a solve run keeps on each engine its attempts are placed on, made when
 * the engine first gets an attempt: the attempt containers (the next one made
 * and brought to the starting state ahead of time) and two evaluation
 * containers kept for the whole run, in which patches are judged.
 */
import { join } from 'node:path';
import type { BugArtifact } from '../bugs/artifact.js';
import { CheckContext } from '../bugs/check-context.js';
import { DEFAULT_CHECK_PARAMS } from '../bugs/meta.js';
import type { RunEngine } from '../sandbox/engines.js';
import type { BugRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { PreparedSandboxes } from './prepared-sandboxes.js';
import { buildStartingState } from '../bugs/starting-state.js';
import { openSandbox } from '../sandbox/engine-table.js';

export interface EngineSide {
  containers: PreparedSandboxes;
  evaluation: CheckContext;
}

export class SolveSides {
  private readonly sides = new Map<string, EngineSide>();

  /** `attempts`: how many attempt containers may be taken in all (none is made beyond them). */
  constructor(
    private readonly store: Store,
    private readonly runId: string,
    private readonly bug: BugRecord,
    private readonly artifact: BugArtifact,
    private readonly attempts: number,
    /** The run's cancellation: an evaluation its abort cut off is cancelled, not failed. */
    private readonly signal?: AbortSignal,
  ) {}

  /** The engine's side, made (and its evaluation containers started) on first use. */
  of(engine: RunEngine): EngineSide {
    let side = this.sides.get(engine.name);
    if (side) return side;
    const { bug, artifact, runId } = this;
    const evaluation = new CheckContext({
      artifact,
      image: bug.image,
      baseCommit: bug.baseCommit,
      params: { ...DEFAULT_CHECK_PARAMS, ...artifact.meta?.params },
      logDir: this.store.abs(join('runs', runId, 'eval')),
      parallelism: 2,
      runId: `${runId}-eval-${engine.name}`,
      engine: engine.port,
      signal: this.signal,
    });
    const containers = new PreparedSandboxes(async () => {
      const sandbox = await openSandbox({ image: bug.image, runId: `${runId}-attempt`, engine: engine.port });
      try {
        await buildStartingState(sandbox, artifact, bug.baseCommit);
      } catch (error) {
        await sandbox.remove().catch(() => undefined);
        throw error;
      }
      return sandbox;
    }, this.attempts);
    evaluation.warm();
    side = { containers, evaluation };
    this.sides.set(engine.name, side);
    return side;
  }

  /** Removes every side's containers (safe to call more than once). */
  async close(): Promise<void> {
    await Promise.all([...this.sides.values()].flatMap((side) => [side.evaluation.close(), side.containers.close()]));
  }
}
