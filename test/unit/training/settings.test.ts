import { describe, expect, it } from 'vitest';
import { TrainingNotConfiguredError } from '../../../src/errors.js';
import { resolveTrainingSettings } from '../../../src/training/settings.js';

const localCluster = {
  file: '/tmp/bugbench-slurm/bugbench.config.json',
  config: { training: { slurm: { url: 'http://127.0.0.1:6820', socket: '/tmp/s.sock', user: 'bugbench', jwtKeyFile: '/tmp/k', partition: 'debug', apiVersion: 'v0.0.38' } } },
};
const workspace = (training: unknown) => ({ file: '/ws/bugbench.config.json', config: { training } });

describe('training settings', () => {
  it('has no engine when nothing is configured', () => {
    const s = resolveTrainingSettings({ env: {}, localDir: '/ws/local-jobs' });
    expect(s.engine).toBeUndefined();
    expect(s.slurm).toMatchObject({ url: undefined, socket: undefined, apiVersion: 'v0.0.38' });
    expect(s.local.dir).toBe('/ws/local-jobs');
  });

  it('takes the environment over the workspace file', () => {
    const s = resolveTrainingSettings({
      env: { SLURMRESTD_URL: 'https://head:6820', SLURM_JWT: 'tok', SLURM_PARTITION: 'gpu' },
      workspace: workspace({ slurm: { url: 'http://other:6820', user: 'alice', partition: 'cpu' } }),
      localDir: '/x',
    });
    expect(s.slurm).toMatchObject({ url: 'https://head:6820', token: 'tok', user: 'alice', partition: 'gpu', source: 'environment' });
    expect(s.engine).toBe('slurm');
  });

  it('falls back to the local cluster only when nothing names a slurmrestd, keeping explicit settings', () => {
    const fallback = resolveTrainingSettings({ env: { SLURM_PARTITION: 'mine' }, localCluster, localDir: '/x' });
    expect(fallback.slurm).toMatchObject({ url: 'http://127.0.0.1:6820', socket: '/tmp/s.sock', user: 'bugbench', jwtKeyFile: '/tmp/k', partition: 'mine' });
    expect(fallback.slurm.source).toContain('scripts/slurm-up');
    expect(fallback.engine).toBe('slurm');

    const remote = resolveTrainingSettings({ env: {}, workspace: workspace({ slurm: { url: 'https://head:6820', user: 'alice' } }), localCluster, localDir: '/x' });
    expect(remote.slurm).toMatchObject({ url: 'https://head:6820', user: 'alice', jwtKeyFile: undefined, socket: undefined });
  });

  it('reads Ray\'s address like Ray does, and an explicit engine', () => {
    expect(resolveTrainingSettings({ env: { RAY_ADDRESS: 'http://h:8265' }, localDir: '/x' })).toMatchObject({ engine: 'ray', ray: { address: 'http://h:8265' } });
    expect(resolveTrainingSettings({ env: { RAY_ADDRESS: 'http://a', RAY_API_SERVER_ADDRESS: 'http://b' }, localDir: '/x' }).ray.address).toBe('http://b');
    const s = resolveTrainingSettings({ env: { RAY_ADDRESS: 'http://h:8265' }, workspace: workspace({ engine: 'local', local: { dir: '/jobs' } }), localCluster, localDir: '/x' });
    expect(s.engine).toBe('local');
    expect(s.local.dir).toBe('/jobs');
  });

  it('names the bad setting', () => {
    expect(() => resolveTrainingSettings({ env: { BUGBENCH_TRAINING_ENGINE: 'k8s' }, localDir: '/x' })).toThrow(/must be one of slurm, ray, local, got "k8s"/);
    expect(() => resolveTrainingSettings({ env: {}, workspace: workspace({ slurm: { url: 6820 } }), localDir: '/x' })).toThrow(TrainingNotConfiguredError);
    expect(() => resolveTrainingSettings({ env: {}, workspace: workspace({ slurm: { url: 6820 } }), localDir: '/x' })).toThrow('"training.slurm.url" must be a string');
    expect(() => resolveTrainingSettings({ env: {}, workspace: workspace([]), localDir: '/x' })).toThrow('"training" must be an object');
  });
});
