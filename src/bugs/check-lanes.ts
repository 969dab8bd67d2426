/**
 * The containers a bug's test runs go to: lanes, one container each, created
 * once and reset by git between runs. A run waits in line, in the order it was
 * asked for, and the first lane that is free takes it (lane-queue.ts). With two
 * or more lanes taking turns on the test script, a volume they share holds the
 * script's lock (and Go's build cache, go-cache.ts). For comparison only, a
 * lane can be a slot that makes a fresh container for every run.
 */
import type { ContainerEngine } from '../sandbox/port.js';
import { defaultContainerEngine, openSandbox } from '../sandbox/engine-table.js';
import { LABEL_RUN, ownerLabels } from '../sandbox/owner.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { BugArtifact } from './artifact.js';
import { SCRIPT_LOCK, SHARED_DIR } from './container-paths.js';
import { SHARED_VOLUME_BYTES } from './go-cache.js';
import { LaneQueue } from './lane-queue.js';
import { artifactFiles } from './test-run.js';

/** A script that kept busy at most this much of its lane's share of the processors leaves room for the other lanes' scripts. */
export const SIDE_BY_SIDE_LOAD = 1.2;
/** Shorter runs are not timed finely enough (the kernel counts processor time in hundredths of a second). */
const MIN_TIMED_MS = 200;

/** A run's wall time and, where the container could tell, its script's processor time and the processors there were. */
export interface TimedRun {
  durationMs: number;
  cpu?: { ms: number; cores: number };
  timedOut?: boolean;
  /** false: it held the lock; true: it ran beside another script; absent: no lock was there to hold. */
  sideBySide?: boolean;
}

/**
 * How much of one lane's share of the processors a run's script kept busy
 * (1: all of it); undefined for a run too short to time or one that could
 * not tell.
 */
export function scriptLoad(run: TimedRun, lanes: number): number | undefined {
  if (!run.cpu || run.durationMs < MIN_TIMED_MS) return undefined;
  const share = run.cpu.cores / Math.max(1, lanes);
  return run.cpu.ms / run.durationMs / share;
}

/** The lanes of this process with a run under way. */
const busyLanes = new Set<CheckLanes>();

export interface LaneSetup {
  artifact: BugArtifact;
  image: string;
  runId: string;
  /** Containers working at once. */
  parallelism: number;
  /** Let test scripts of different containers run at the same time (no shared lock). */
  parallelTests?: boolean;
  /** A new container for every run, as SWE-bench's harness does (for comparison only). */
  freshContainerPerRun?: boolean;
  engine?: ContainerEngine;
}

export class CheckLanes {
  private readonly lanes: Promise<Sandbox>[] = [];
  private readonly queue = new LaneQueue();
  private sharedVolume?: Promise<string | undefined>;
  private opened = 0;
  /** The most processors a finished test script kept busy for each that was free to it (cpu time over wall time, per lane's share); undefined before one told. */
  private heaviest?: number;
  /** Whether a run timed so held the lock (no other script ran beside it). */
  private timedAlone = false;
  /** Runs of these lanes under way. */
  private running = 0;

  constructor(private readonly setup: LaneSetup) {}

  get count(): number {
    return Math.max(1, this.setup.parallelism);
  }

  private get engine(): ContainerEngine {
    return this.setup.engine ?? defaultContainerEngine();
  }

  /** The volume holding the script lock, made once when the lanes take turns. */
  private volume(): Promise<string | undefined> {
    if (this.count < 2 || this.setup.parallelTests || this.setup.freshContainerPerRun) return Promise.resolve(undefined);
    this.sharedVolume ??= this.engine.createVolume(`bugbench-${this.setup.runId}`, { [LABEL_RUN]: this.setup.runId, ...ownerLabels() }, { memoryBytes: SHARED_VOLUME_BYTES });
    return this.sharedVolume;
  }

  /** Where the lanes' shared volume is mounted in each, when they have one (the lock, Go's build cache). */
  sharedDir(): string | undefined {
    return this.sharedVolume ? SHARED_DIR : undefined;
  }

  /**
   * The lock a run's script holds while it runs, when the lanes take turns:
   * until a script has shown that it leaves a lane's share of the processors
   * free (one core of two, for two lanes: pytest, unittest, most single-process
   * runners), after which the scripts run side by side. Taking turns pays only
   * for a runner that fills the machine (go test, jest's workers); side by
   * side, a one-core suite's checks take about four-fifths of the time. While
   * another bug's runs are under way in this process (`inject` checks bugs
   * side by side), the lanes take turns: the cores are taken already.
   */
  lockPath(): string | undefined {
    if (!this.sharedDir()) return undefined;
    const roomy = this.timedAlone && this.heaviest !== undefined && this.heaviest <= SIDE_BY_SIDE_LOAD;
    return roomy && [...busyLanes].every((lanes) => lanes === this) ? undefined : SCRIPT_LOCK;
  }

  /** A run of these lanes started (it holds a lane until `runFinished`). */
  runStarted(): void {
    this.running++;
    busyLanes.add(this);
  }

  runFinished(): void {
    if (--this.running <= 0) {
      this.running = 0;
      busyLanes.delete(this);
    }
  }

  /** Takes note of how many processors a finished run's script kept busy (runs shorter than MIN_TIMED_MS say too little). */
  observe(run: TimedRun): void {
    const load = run.timedOut ? undefined : scriptLoad(run, this.count);
    if (load === undefined) return;
    this.heaviest = Math.max(this.heaviest ?? 0, load);
    // A script that shared the processors with another reads lighter than it is: it can show there is no room, not that there is.
    if (run.sideBySide === false) this.timedAlone = true;
  }

  private async createSandbox(): Promise<Sandbox> {
    const volume = await this.volume();
    return openSandbox({
      image: this.setup.image,
      runId: this.setup.runId,
      engine: this.setup.engine,
      volumes: volume ? { [volume]: SHARED_DIR } : undefined,
      files: artifactFiles(this.setup.artifact),
    });
  }

  /** A lane's container, made on first need. */
  private lane(i: number): Promise<Sandbox> {
    while (this.lanes.length <= i) {
      const created = this.createSandbox();
      created.catch(() => undefined);
      this.lanes.push(created);
    }
    return this.lanes[i]!;
  }

  /**
   * Opens every lane now, so the first runs do not wait for the containers
   * (solving warms its evaluation lanes while the agents work). A lane takes
   * runs once its container is up, or once making it failed (its runs then
   * fail with that error); with a fresh container per run a lane is only a
   * slot, open at once.
   */
  warm(): void {
    while (this.opened < this.count) {
      const i = this.opened++;
      if (this.setup.freshContainerPerRun) this.queue.open(i);
      else void this.lane(i).then(() => this.queue.open(i), () => this.queue.open(i));
    }
  }

  /** The bug's own container (lane 0). */
  first(): Promise<Sandbox> {
    return this.lane(0);
  }

  /** Runs `work` in the first free lane's container (or, for comparison, a fresh one). */
  submit<T>(work: (sandbox: Sandbox) => Promise<T>): Promise<T> {
    this.warm();
    return this.queue.submit(async (lane) => {
      this.runStarted();
      try {
        if (!this.setup.freshContainerPerRun) return await work(await this.lane(lane));
        const fresh = await this.createSandbox();
        try {
          return await work(fresh);
        } finally {
          await fresh.remove();
        }
      } finally {
        this.runFinished();
      }
    });
  }

  /** Removes the containers, then the volume they shared. */
  async close(): Promise<void> {
    await Promise.all(this.lanes.map((s) => s.then((sandbox) => sandbox.remove()).catch(() => undefined)));
    const volume = await this.sharedVolume?.catch(() => undefined);
    if (volume) await this.engine.removeVolume(volume).catch(() => undefined);
  }
}
