import { describe, expect, it } from 'vitest';
import { expandOutputPath } from '../../../src/cluster/slurm/output-path.js';

const ctx = { jobId: '42', jobName: 'train', user: 'alice', workdir: '/w/', node: 'gpu01' };

describe('expandOutputPath', () => {
  it('expands what slurmrestd 22.05 leaves unexpanded', () => {
    expect(expandOutputPath('/w/slurm-%j.out', ctx)).toBe('/w/slurm-42.out');
    expect(expandOutputPath('/logs/%u/%x-%J-%A.log', ctx)).toBe('/logs/alice/train-42-42.log');
    expect(expandOutputPath('/w/%N.out', ctx)).toBe('/w/gpu01.out');
  });

  it('pads to a given width and keeps %%', () => {
    expect(expandOutputPath('/w/job%6j.out', ctx)).toBe('/w/job000042.out');
    expect(expandOutputPath('/w/100%%-%j', ctx)).toBe('/w/100%-42');
  });

  it('leaves patterns it cannot know, and starts relative paths at the working directory', () => {
    expect(expandOutputPath('out-%a.log', ctx)).toBe('/w/out-%a.log');
    expect(expandOutputPath('/w/%N', { ...ctx, node: undefined })).toBe('/w/%N');
  });
});
