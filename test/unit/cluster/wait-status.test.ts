import { describe, expect, it } from 'vitest';
import { decodeWaitStatus } from '../../../src/cluster/slurm/wait-status.js';

describe('decodeWaitStatus', () => {
  it('reads an exit code from the high byte', () => {
    expect(decodeWaitStatus(0)).toEqual({ exitCode: 0, signal: null });
    expect(decodeWaitStatus(768)).toEqual({ exitCode: 3, signal: null });
    expect(decodeWaitStatus(255 << 8)).toEqual({ exitCode: 255, signal: null });
  });

  it('reads a signal from the low seven bits, core dump flag or not', () => {
    expect(decodeWaitStatus(15)).toEqual({ exitCode: null, signal: 15 });
    expect(decodeWaitStatus(9)).toEqual({ exitCode: null, signal: 9 });
    expect(decodeWaitStatus(0x80 | 11)).toEqual({ exitCode: null, signal: 11 });
  });
});
