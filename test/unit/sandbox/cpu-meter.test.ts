import { describe, expect, it } from 'vitest';
import { metering, recordContainerCpu, startCpuMeter } from '../../../src/sandbox/cpu-meter.js';

describe('the container CPU meter', () => {
  it('adds what removed containers used while it is on, counts the ones the engine did not tell, and stops', () => {
    expect(metering()).toBe(false);
    recordContainerCpu(5);
    const meter = startCpuMeter();
    expect(metering()).toBe(true);
    recordContainerCpu(1.5);
    recordContainerCpu(undefined);
    recordContainerCpu(2);
    meter.stop();
    recordContainerCpu(7);
    expect(metering()).toBe(false);
    expect(meter.total()).toEqual({ cpuSeconds: 3.5, containers: 2, unread: 1 });
  });
});
