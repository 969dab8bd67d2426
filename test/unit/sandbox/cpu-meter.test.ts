import { describe, expect, it } from 'vitest';
import { metering, recordContainerCpu, startCpuMeter } from '../../../src/sandbox/cpu-meter.js';

describe('the container CPU meter', () => {
  it('adds what removed containers used while it is on, counts the ones the engine did not tell, and stops', () => {
    expect(metering()).toBe(false);
    recordContainerCpu(5, 'r0');
    const meter = startCpuMeter();
    expect(metering()).toBe(true);
    recordContainerCpu(1.5, 'r1');
    recordContainerCpu(undefined, 'r1');
    recordContainerCpu(2, 'r1-check');
    meter.stop();
    recordContainerCpu(7, 'r1');
    expect(metering()).toBe(false);
    expect(meter.total()).toEqual({ cpuSeconds: 3.5, containers: 2, unread: 1 });
    expect([...meter.byRun()]).toEqual([['r1', 1.5], ['r1-check', 2]]);
  });
});
