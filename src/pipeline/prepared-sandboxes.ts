/**
 * Containers made ahead: while the current rollouts run, the next one's
 * container is created and prepared (for a solver, its starting state), so a
 * rollout that starts takes a ready one. Never more than the rollouts still to
 * come; whatever is left over is removed by `close`.
 */
import type { Sandbox } from '../sandbox/sandbox.js';

export class PreparedSandboxes {
  private readonly ready: Promise<Sandbox>[] = [];
  private closed = false;

  /** `make` creates and prepares one container; `total` containers will be taken, `ahead` are made in advance. */
  constructor(
    private readonly make: () => Promise<Sandbox>,
    private remaining: number,
    private readonly ahead = 1,
  ) {}

  /** A prepared container (made now if none is ready), and the next ones started. */
  take(): Promise<Sandbox> {
    if (this.closed) return Promise.reject(new Error('the run is over: no more containers'));
    this.remaining--;
    const next = this.ready.shift() ?? this.make();
    this.fill();
    return next;
  }

  private fill(): void {
    while (!this.closed && this.ready.length < Math.min(this.ahead, this.remaining - this.ready.length)) {
      const made = this.make();
      made.catch(() => undefined);
      this.ready.push(made);
    }
  }

  /** Removes the containers made for rollouts that will not run. */
  async close(): Promise<void> {
    this.closed = true;
    const left = this.ready.splice(0);
    await Promise.all(left.map((p) => p.then((s) => s.remove()).catch(() => undefined)));
  }
}
