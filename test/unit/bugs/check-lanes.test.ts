/**
 * When a bug's containers stop taking turns on the test script: once a run
 * has shown the script leaves each container its share of the processors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CheckLanes, scriptLoad, SIDE_BY_SIDE_LOAD } from '../../../src/bugs/check-lanes.js';
import { readSummary } from '../../../src/bugs/test-run.js';
import type { ContainerEngine } from '../../../src/sandbox/port.js';
import type { BugArtifact } from '../../../src/bugs/artifact.js';

/** Lanes whose shared volume is made (no container is: nothing here submits a run). */
async function lanes(parallelism = 2): Promise<CheckLanes> {
  const engine = { createVolume: async (name: string) => name } as unknown as ContainerEngine;
  const made = new CheckLanes({ artifact: {} as BugArtifact, image: 'x', runId: 'r', parallelism, engine });
  // The volume is asked for with the first container; ask for it the same way without one.
  await (made as unknown as { volume(): Promise<string | undefined> }).volume();
  return made;
}

describe('the load of a test script', () => {
  it('is its processor time over its wall time, per lane\'s share of the processors', () => {
    expect(scriptLoad({ durationMs: 1000, cpu: { ms: 950, cores: 2 } }, 2)).toBeCloseTo(0.95);
    expect(scriptLoad({ durationMs: 1000, cpu: { ms: 1500, cores: 2 } }, 2)).toBeCloseTo(1.5);
    // Eight processors, two lanes: go test keeping 1.5 of them busy leaves room for another.
    expect(scriptLoad({ durationMs: 1000, cpu: { ms: 1500, cores: 8 } }, 2)).toBeCloseTo(0.375);
    // One processor for two lanes: even a one-core script fills it twice over.
    expect(scriptLoad({ durationMs: 1000, cpu: { ms: 950, cores: 1 } }, 2)).toBeCloseTo(1.9);
  });

  it('is not told by a run too short to time or one whose container could not say', () => {
    expect(scriptLoad({ durationMs: 120, cpu: { ms: 100, cores: 2 } }, 2)).toBeUndefined();
    expect(scriptLoad({ durationMs: 1000 }, 2)).toBeUndefined();
  });
});

/** A run of 300 ms whose script kept `cores` × `load` of a lane's share busy, timed holding the lock unless said. */
const run = (load: number, more: { sideBySide?: boolean; timedOut?: boolean } = {}) => ({ durationMs: 300, cpu: { ms: Math.round(300 * load), cores: 2 }, sideBySide: false, ...more });

describe('taking turns on the test script', () => {
  const started: CheckLanes[] = [];
  afterEach(() => {
    for (const l of started.splice(0)) l.runFinished();
  });
  const start = (l: CheckLanes) => {
    l.runStarted();
    started.push(l);
  };

  it('takes turns until a run shows the script leaves a core free, then runs side by side', async () => {
    const l = await lanes();
    expect(l.lockPath()).toBeDefined();
    l.observe({ durationMs: 100, cpu: { ms: 10, cores: 2 }, sideBySide: false });
    expect(l.lockPath()).toBeDefined();
    l.observe(run(0.95));
    expect(l.lockPath()).toBeUndefined();
    expect(l.sharedDir()).toBeDefined();
  });

  it('goes back to taking turns once any run fills more than its share', async () => {
    const l = await lanes();
    l.observe(run(0.95));
    l.observe(run(SIDE_BY_SIDE_LOAD + 0.1, { sideBySide: true }));
    expect(l.lockPath()).toBeDefined();
    l.observe(run(0.3));
    expect(l.lockPath()).toBeDefined();
  });

  it('is not shown room by a run that shared the processors, ran with no lock to hold, or was killed at its limit', async () => {
    const l = await lanes();
    // Beside another script, a suite that wants 1.3 cores reads about 1.
    l.observe(run(1, { sideBySide: true }));
    l.observe(run(0.9, { sideBySide: undefined }));
    l.observe(run(0.1, { timedOut: true }));
    expect(l.lockPath()).toBeDefined();
  });

  it('takes turns while another bug of the process has runs under way', async () => {
    const mine = await lanes();
    const other = await lanes();
    mine.observe(run(0.95));
    start(mine);
    expect(mine.lockPath()).toBeUndefined();
    start(other);
    expect(mine.lockPath()).toBeDefined();
    other.runFinished();
    started.splice(started.indexOf(other), 1);
    expect(mine.lockPath()).toBeUndefined();
  });

  it('has no lock to take with one lane', async () => {
    const l = await lanes(1);
    expect(l.lockPath()).toBeUndefined();
    expect(l.sharedDir()).toBeUndefined();
  });
});

describe('the summary line of a run', () => {
  const encoded = (text: string) => Buffer.from(text).toString('base64');

  it('carries the script\'s processor time and the processors it had', () => {
    const summary = readSummary(`noise\nbugbench-run 812 0 20 640 2\n${encoded('{}')}\n${encoded('')}\n`);
    expect(summary).toMatchObject({ durationMs: 812, parserExit: 0, parserDurationMs: 20, cpu: { ms: 640, cores: 2 }, parsed: '{}' });
  });

  it('leaves the processor time out where the container could not read it', () => {
    expect(readSummary(`bugbench-run 812 0 20 -1 2\n${encoded('{}')}\n\n`)?.cpu).toBeUndefined();
    expect(readSummary(`bugbench-run 812 0 20 640 0\n${encoded('{}')}\n\n`)?.cpu).toBeUndefined();
    expect(readSummary(`bugbench-run 812 0 20\n${encoded('{}')}\n\n`)?.cpu).toBeUndefined();
  });
});
