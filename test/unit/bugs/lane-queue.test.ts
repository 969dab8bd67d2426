import { describe, expect, it } from 'vitest';
import { LaneQueue } from '../../../src/bugs/lane-queue.js';

/** A job that records which lane took it and ends when told to. */
function job(log: string[], name: string) {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  return {
    end: () => end(),
    work: async (lane: number) => {
      log.push(`${name}@${lane}`);
      await ended;
      return name;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the lanes of a bug\'s runs', () => {
  it('waits for a lane to open, then serves jobs in the order they were asked for', async () => {
    const queue = new LaneQueue();
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => job(log, name));
    const done = [a!, b!, c!].map((j) => queue.submit(j.work));
    await settle();
    expect(log).toEqual([]);
    queue.open(1);
    queue.open(0);
    await settle();
    expect(log).toEqual(['a@1', 'b@0']);
    b!.end();
    await settle();
    expect(log).toEqual(['a@1', 'b@0', 'c@0']);
    a!.end();
    c!.end();
    expect(await Promise.all(done)).toEqual(['a', 'b', 'c']);
  });

  it('gives the next job to whichever lane finishes first, so no lane idles while work waits', async () => {
    const queue = new LaneQueue();
    const log: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((name) => job(log, name));
    queue.open(0);
    queue.open(1);
    const done = jobs.map((j) => queue.submit(j.work));
    await settle();
    // Lane 1 finishes twice while lane 0 is still on its first job.
    jobs[1]!.end();
    await settle();
    jobs[2]!.end();
    await settle();
    expect(log).toEqual(['a@0', 'b@1', 'c@1', 'd@1']);
    jobs[0]!.end();
    jobs[3]!.end();
    await Promise.all(done);
  });

  it('frees a lane whose job failed, and hands the failure to that job only', async () => {
    const queue = new LaneQueue();
    queue.open(0);
    const failed = queue.submit(() => {
      throw new Error('no container');
    });
    const next = queue.submit(async (lane) => `ran on ${lane}`);
    await expect(failed).rejects.toThrow('no container');
    expect(await next).toBe('ran on 0');
  });
});
