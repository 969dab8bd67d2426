import { describe, expect, it } from 'vitest';
import { JOB_KEY_PATTERN, jobKey } from '../../../src/training/job-key.js';

describe('jobKey', () => {
  it('is the same for the same bugs in any order, duplicates or not', () => {
    expect(jobKey(['b-2', 'b-1', 'b-3'], 'sft')).toBe(jobKey(['b-3', 'b-1', 'b-2', 'b-1'], 'sft'));
  });

  it('changes with the format and with the set of bugs', () => {
    const base = jobKey(['b-1', 'b-2'], 'sft');
    expect(jobKey(['b-1', 'b-2'], 'rl')).not.toBe(base);
    expect(jobKey(['b-1'], 'sft')).not.toBe(base);
    expect(jobKey(['b-1', 'b-2', 'b-3'], 'sft')).not.toBe(base);
    // ids are separated, so joining them differently cannot collide
    expect(jobKey(['b-1b-2'], 'sft')).not.toBe(base);
  });

  it('changes with the command, the resources and a nonce, and ignores resources left unset', () => {
    const base = jobKey(['b-1'], 'sft', { command: 'train {dataset}' });
    expect(jobKey(['b-1'], 'sft', { command: 'train {dataset}' })).toBe(base);
    expect(jobKey(['b-1'], 'sft', { command: 'train2 {dataset}' })).not.toBe(base);
    expect(jobKey(['b-1'], 'sft')).not.toBe(base);
    expect(jobKey(['b-1'], 'sft', { command: 'train {dataset}', resources: { gpus: 1 } })).not.toBe(base);
    expect(jobKey(['b-1'], 'sft', { command: 'train {dataset}', resources: { gpus: undefined } })).toBe(base);
    expect(jobKey(['b-1'], 'sft', { command: 'train {dataset}', nonce: 'x' })).not.toBe(base);
  });

  it('is stable across releases and usable as an engine id', () => {
    const key = jobKey(['bug-1', 'bug-2'], 'swebench');
    // A changed key would make every stored job look new: pinned.
    expect(key).toBe('43bcf2d9ad1a6f437b51a43d');
    expect(key).toMatch(JOB_KEY_PATTERN);
  });
});
