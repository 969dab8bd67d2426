/**
 * Container CPU time, counted while a meter is on: each sandbox's total (the
 * engine's own count for the container's cgroup, every exec included) is read
 * just before the sandbox is removed and added to every meter that is on.
 * Off by default: reading costs one request to the engine per container,
 * which only a measurement wants (bench/yield.ts).
 */
export class CpuMeter {
  private seconds = 0;
  private read = 0;
  private unread = 0;
  private readonly perRun = new Map<string, number>();

  /** Adds one container's CPU seconds under its run id, or counts it as unread when the engine did not tell. */
  add(seconds: number | undefined, runId = ''): void {
    if (seconds === undefined) this.unread++;
    else {
      this.seconds += seconds;
      this.read++;
      this.perRun.set(runId, (this.perRun.get(runId) ?? 0) + seconds);
    }
  }

  /** CPU seconds of the containers removed since the meter started; `unread`: containers whose engine did not tell. */
  total(): { cpuSeconds: number; containers: number; unread: number } {
    return { cpuSeconds: this.seconds, containers: this.read, unread: this.unread };
  }

  /** The CPU seconds by run id (a rollout's containers, its checks', their parser's), for telling where the time went. */
  byRun(): ReadonlyMap<string, number> {
    return this.perRun;
  }
}

const running = new Set<CpuMeter>();

/** Starts a meter; `stop` it when the measurement is over. */
export function startCpuMeter(): CpuMeter & { stop(): void } {
  const meter = Object.assign(new CpuMeter(), { stop: () => void running.delete(meter) });
  running.add(meter);
  return meter;
}

/** Whether any meter is on (a sandbox reads its CPU time before removal only then). */
export function metering(): boolean {
  return running.size > 0;
}

/** A removed container's CPU seconds, for every meter that is on. */
export function recordContainerCpu(seconds: number | undefined, runId: string): void {
  for (const meter of running) meter.add(seconds, runId);
}
