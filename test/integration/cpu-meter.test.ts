/**
 * Container CPU as bench:yield counts it (#30 item 4): the engine's own count
 * for a container, every exec included, read when the sandbox is removed
 * while a meter is on — not wall time: a container that sleeps costs nothing.
 */
import { describe, expect, it } from 'vitest';
import { BASE_IMAGE } from '../../src/sandbox/docker-api/base-image.js';
import { startCpuMeter } from '../../src/sandbox/cpu-meter.js';
import { openSandbox } from '../../src/sandbox/engine-table.js';

describe('the container CPU meter on a real engine', () => {
  it('counts the CPU an exec burned and not the time a container slept', async () => {
    const busy = await openSandbox({ image: BASE_IMAGE, runId: 'cpu-meter-test' });
    const idle = await openSandbox({ image: BASE_IMAGE, runId: 'cpu-meter-test' });
    const meter = startCpuMeter();
    try {
      // Counted work (about half a CPU second on an idle machine, whatever the load) in the one, a second of sleep in the other.
      await Promise.all([busy.exec('i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'), idle.exec('sleep 1')]);
      const burned = await busy.cpuSeconds();
      expect(burned).toBeGreaterThan(0.2);
      await busy.remove();
      const afterBusy = meter.total();
      expect(afterBusy.containers).toBe(1);
      expect(afterBusy.cpuSeconds).toBeGreaterThanOrEqual(burned!);
      await idle.remove();
      const after = meter.total();
      expect(after.containers).toBe(2);
      expect(after.cpuSeconds - afterBusy.cpuSeconds).toBeLessThan(0.3);
    } finally {
      meter.stop();
      await Promise.all([busy.remove(), idle.remove()]);
    }
  });
});
