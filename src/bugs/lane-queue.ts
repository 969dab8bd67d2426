/**
 * Work shared by a few lanes (one container each): a job waits in line, first
 * asked first served, and the first lane that is free takes it, so no lane
 * idles while another has work queued. A lane takes work once it is opened
 * (its container is up) and again each time it finishes a job.
 */
export class LaneQueue {
  private readonly waiting: ((lane: number) => void)[] = [];
  private readonly idle: number[] = [];

  /** The lane can take a job: the longest-waiting one, if any. */
  open(lane: number): void {
    const next = this.waiting.shift();
    if (next) next(lane);
    else this.idle.push(lane);
  }

  /** Runs `work` on the first lane that is free; the lane is free again once it settles. */
  submit<T>(work: (lane: number) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = (lane: number) => {
        // A job that throws before its first await still frees its lane.
        Promise.resolve()
          .then(() => work(lane))
          .then(resolve, reject)
          .finally(() => this.open(lane));
      };
      const lane = this.idle.shift();
      if (lane !== undefined) start(lane);
      else this.waiting.push(start);
    });
  }
}
