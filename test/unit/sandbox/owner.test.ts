import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { LABEL_OWNER_HOST, LABEL_OWNER_PID, LABEL_OWNER_START, ownerAlive, ownerLabels, processStartTime } from '../../../src/sandbox/owner.js';

describe('container owner labels', () => {
  it('say this process is alive', () => {
    expect(processStartTime(process.pid)).toMatch(/^\d+$/);
    expect(ownerAlive(ownerLabels())).toBe(true);
  });
  it('say a recycled pid (same pid, other start time) is not the owner', () => {
    expect(ownerAlive({ ...ownerLabels(), [LABEL_OWNER_START]: '1' })).toBe(false);
  });
  it('say a pid that does not exist is dead', () => {
    expect(ownerAlive({ [LABEL_OWNER_PID]: '99999999', [LABEL_OWNER_START]: '5', [LABEL_OWNER_HOST]: hostname() })).toBe(false);
  });
  it('leave containers of other hosts alone', () => {
    expect(ownerAlive({ [LABEL_OWNER_PID]: '1', [LABEL_OWNER_HOST]: 'elsewhere' })).toBe(true);
  });
});
