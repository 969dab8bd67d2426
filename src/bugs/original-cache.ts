/**
 * The original code's test runs, shared by every bug of one image, test script,
 * parser and test files: the original state is the base commit whatever the
 * bug, so its runs are made once and kept in the workspace (`cache/original-runs`):
 * the first (the original run) and the second (the gold patch's, when its tree
 * is the original's), each under the key and its number.
 * The key is the content itself (the image's id, not its tag; the base commit;
 * the script, parser and test files; the time limit), so a rebuilt image or an
 * edited script never meets a stale record. Only runs whose map can be trusted
 * are kept. The log is copied beside each bug's other logs, where it would have
 * been written.
 *
 * Bugs checked side by side in one process (a run's rollouts, two at a time)
 * would each miss the cache and each make the original: the first to ask
 * claims the run (`keep`), and the others wait for it (`readOrAwait`) and read
 * what it kept, making their own only if it kept nothing.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../atomic.js';
import { readJsonFile } from '../json-file.js';
import type { ContainerEngine } from '../sandbox/port.js';
import type { BugArtifact } from './artifact.js';
import { runProblem } from './run-problems.js';
import type { RunRecord } from './test-run.js';

/** Where a workspace keeps the original runs, relative to its root. */
export const ORIGINAL_CACHE_DIR = 'cache/original-runs';

export interface OriginalKeyInput {
  imageId: string;
  baseCommit: string;
  artifact: Pick<BugArtifact, 'testScript' | 'testParser' | 'testFiles'>;
  timeoutSec: number;
}

export function originalKey(input: OriginalKeyInput): string {
  const { imageId, baseCommit, artifact, timeoutSec } = input;
  const content = JSON.stringify({ v: 1, imageId, baseCommit, script: artifact.testScript, parser: artifact.testParser, testFiles: artifact.testFiles, timeoutSec });
  return createHash('sha256').update(content).digest('hex');
}

/** `promise`, or sooner once `signal` aborts. */
function untilAborted(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve();
  return Promise.race([promise, once(signal, 'abort').then(() => undefined)]);
}

/** Original runs being made in this process, by cache file: settled once the run is kept (or not). */
const claims = new Map<string, Promise<void>>();

export class OriginalRunCache {
  constructor(private readonly dir: string) {}

  /** The key of the original run of this bug on `image`, or undefined if the engine does not know the image. */
  static async key(engine: ContainerEngine, image: string, input: Omit<OriginalKeyInput, 'imageId'>): Promise<string | undefined> {
    const info = await engine.inspectImage(image).catch(() => undefined);
    return info ? originalKey({ ...input, imageId: info.id }) : undefined;
  }

  private name(key: string, observation: number): string {
    return observation === 1 ? key : `${key}.${observation}`;
  }

  private claimName(key: string, observation: number): string {
    return join(this.dir, this.name(key, observation));
  }

  /**
   * The kept run (as `read`), waiting first for another check of this process
   * that is making it (`waiting` is called then); undefined when there is none
   * to wait for, it kept nothing, or `signal` aborted the wait: the caller makes it.
   */
  async readOrAwait(key: string, logDir: string, observation: number, wait: { signal?: AbortSignal; waiting: () => void }): Promise<RunRecord | undefined> {
    const kept = this.read(key, logDir, observation);
    const claimed = kept ? undefined : claims.get(this.claimName(key, observation));
    if (!claimed) return kept;
    wait.waiting();
    await untilAborted(claimed, wait.signal);
    return wait.signal?.aborted ? undefined : this.read(key, logDir, observation);
  }

  /** The run being made by this check: others of the process wait for it to be kept (`readOrAwait`), then read it. */
  keep(key: string, observation: number, pending: Promise<RunRecord>): Promise<RunRecord> {
    const name = this.claimName(key, observation);
    const made = pending.then((run) => {
      this.write(key, run, observation);
      return run;
    });
    const settled = made.then(() => undefined, () => undefined).finally(() => {
      if (claims.get(name) === settled) claims.delete(name);
    });
    claims.set(name, settled);
    return made;
  }

  /** The kept run (the `observation`-th of the state), its log copied to `logDir`; undefined when there is none (or it cannot be read: the run is then made). */
  read(key: string, logDir: string, observation = 1): RunRecord | undefined {
    try {
      const record = readJsonFile<RunRecord>(join(this.dir, `${this.name(key, observation)}.json`));
      const log = join(this.dir, `${this.name(key, observation)}.log`);
      if (!record || !existsSync(log)) return undefined;
      mkdirSync(logDir, { recursive: true });
      const logPath = join(logDir, basename(record.logPath));
      copyFileSync(log, logPath);
      return { ...record, logPath, reused: true };
    } catch {
      return undefined;
    }
  }

  /** Keeps a run whose map can be trusted; a workspace that cannot take it only loses the sharing. */
  write(key: string, run: RunRecord, observation = 1): void {
    if (runProblem(run) || !existsSync(run.logPath)) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      // The log first: a record is only read with its log beside it.
      writeFileAtomic(join(this.dir, `${this.name(key, observation)}.log`), readFileSync(run.logPath));
      const { reused: _reused, ...kept } = run;
      writeJsonAtomic(join(this.dir, `${this.name(key, observation)}.json`), kept);
    } catch {
      // the next bug makes its own
    }
  }
}
