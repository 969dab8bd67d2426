/** `bugbench doctor` reports the configured training engine and whether it answers; it never decides the exit code. */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bugbench } from '../helpers/cli.js';
import { LOCAL_SLURM_DIR } from '../helpers/training.js';

describe('bugbench doctor: cluster engine', () => {
  it('finds the local Slurm of scripts/slurm-up without any setting', async () => {
    const result = await bugbench(['doctor', '--json'], { env: { BUGBENCH_SLURM_DIR: LOCAL_SLURM_DIR } });
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.cluster).toMatchObject({ ok: true, engine: 'slurm' });
    expect(report.cluster.detail).toMatch(/^Slurm 22\.05\.\d+: slurmctld \S+ UP/);
    const text = await bugbench(['doctor'], { env: { BUGBENCH_SLURM_DIR: LOCAL_SLURM_DIR } });
    expect(text.stdout).toMatch(/^ok {5} cluster engine slurm: Slurm 22\.05/m);
  });

  it('says a configured engine that does not answer is down, with what to do', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const env = { SLURMRESTD_URL: `http://127.0.0.1:${port}`, SLURM_USER: 'bugbench', SLURM_JWT_KEY: `${LOCAL_SLURM_DIR}/state/jwt_hs256.key` };
    const result = await bugbench(['doctor', '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).cluster).toEqual({
      ok: false,
      engine: 'slurm',
      detail: `the slurm engine does not answer at http://127.0.0.1:${port} (connection refused); start it (locally: scripts/slurm-up) or point SLURMRESTD_URL / SLURMRESTD_SOCKET at a running slurmrestd`,
    });
    expect((await bugbench(['doctor'], { env })).stdout).toMatch(/^DOWN {4}cluster engine slurm: the slurm engine does not answer/m);
  });

  it('says how to configure one when there is none', async () => {
    const env = { BUGBENCH_SLURM_DIR: '/nonexistent/bugbench-slurm' };
    const result = await bugbench(['doctor', '--json'], { env });
    expect(JSON.parse(result.stdout).cluster).toEqual({
      ok: false,
      detail: 'not configured: set SLURMRESTD_URL or RAY_ADDRESS (or training.* in bugbench.config.json), or start a local Slurm with scripts/slurm-up',
    });
    expect((await bugbench(['doctor'], { env })).stdout).toMatch(/^absent {2}cluster engine: not configured/m);
  });
});
