import { describe, expect, it } from 'vitest';
import { loginEnvironment, parseEnv, snapshotName } from '../../../src/sandbox/adopt.js';
import type { AdoptedImage } from '../../../src/sandbox/adopted-images.js';
import { adoptedRepoName } from '../../../src/sandbox/repo-images.js';

const SYSTEM = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

describe('what adopting an image keeps of its login shell', () => {
  it('keeps what the login shell adds (SWE-bench\'s conda environment) and drops the shell\'s own variables', () => {
    const plain = { PATH: SYSTEM, HOME: '/root', HOSTNAME: 'a1' };
    const login = { PATH: `/opt/miniconda3/envs/testbed/bin:${SYSTEM}`, HOME: '/root', HOSTNAME: 'a1', SHLVL: '2', CONDA_DEFAULT_ENV: 'testbed', PS1: '$ ' };
    expect(loginEnvironment(plain, login)).toEqual({ PATH: `/opt/miniconda3/envs/testbed/bin:${SYSTEM}`, CONDA_DEFAULT_ENV: 'testbed' });
  });

  it('keeps the image\'s own PATH entries that /etc/profile drops (the golang images\' Go), in the image\'s order', () => {
    const plain = { PATH: `/usr/local/go/bin:${SYSTEM}` };
    expect(loginEnvironment(plain, { PATH: SYSTEM })).toEqual({});
    expect(loginEnvironment(plain, { PATH: `/usr/local/go/bin:${SYSTEM}` })).toEqual({});
  });

  it('keeps an R2E-Gym image\'s virtual environment before the system\'s folders, after what the login shell adds', () => {
    const plain = { PATH: `/testbed/.venv/bin:/root/.local/bin:${SYSTEM}` };
    // /etc/profile's PATH would put /usr/bin (a python3 without the project's packages) first.
    expect(loginEnvironment(plain, { PATH: SYSTEM })).toEqual({});
    expect(loginEnvironment(plain, { PATH: `/opt/conda/bin:${SYSTEM}:/usr/games` })).toEqual({ PATH: `/opt/conda/bin:/testbed/.venv/bin:/root/.local/bin:${SYSTEM}:/usr/games` });
  });

  it('reads env -0 output and names snapshots by image and id', () => {
    expect(parseEnv('A=1\0B=x=y\0\0')).toEqual({ A: '1', B: 'x=y' });
    expect(snapshotName('docker.io/swebench/sweb.eval.x86_64.django__django-11099:latest', 'sha256:0123456789abcdef')).toBe('bugbench/adopted-swebench-sweb.eval.x86_64.django__django-11099:0123456789ab');
  });
});

describe('the repository name of an adopted image', () => {
  const record = (image: string, root: string) => ({ image, imageId: 'sha256:1', runImage: 'r', world: { root } as AdoptedImage['world'], commit: 'c', language: 'python', testCommand: '', overrides: {}, adoptedAt: '' });

  it('is the folder, made fit for a bug id, or the project of a published image\'s name', () => {
    expect(adoptedRepoName(record('x:1', '/work/my project'))).toBe('my-project');
    expect(adoptedRepoName(record('x:1', '/home/ratekit'))).toBe('ratekit');
    expect(adoptedRepoName(record('swebench/sweb.eval.x86_64.django_1776_django-11099:latest', '/testbed'))).toBe('django');
    expect(adoptedRepoName(record('sweb.eval.x86_64.psf__requests-2317:latest', '/testbed'))).toBe('psf');
    expect(adoptedRepoName(record('jyangballin/swesmith.x86_64.pandas-dev_1776_pandas.95280573:latest', '/testbed'))).toBe('pandas-dev');
    expect(adoptedRepoName(record('weird name/!!:1', '/testbed'))).toBe('repo');
  });
});
