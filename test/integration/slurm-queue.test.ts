/**
 * The slurm engine against the real single-node Slurm 22.05 that
 * scripts/slurm-up starts (the global setup makes sure it is up): JWT over TCP
 * and local auth over the unix socket, never a mock.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TrainingAuthError, TrainingEngineUnreachableError } from '../../src/errors.js';
import { DRY_RUN_COMMAND } from '../../src/training/command-template.js';
import { jobKey } from '../../src/training/job-key.js';
import { clusterHealth } from '../../src/training/queue.js';
import type { SlurmSettings } from '../../src/training/settings.js';
import { SlurmQueue } from '../../src/training/slurm/engine.js';
import { mintToken } from '../../src/cluster/slurm/jwt.js';
import { jobDir, localClusterSettings, QUEUED_LIMIT_MS, sampleLines, spec, uniqueKey, waitForState, writeDataset } from '../helpers/training.js';

const cluster = localClusterSettings().slurm;
/** JWT over TCP, the way a remote cluster is reached. */
const overTcp: SlurmSettings = { ...cluster, socket: undefined };
/** Local auth over the unix socket: no token at all. */
const overSocket: SlurmSettings = { ...cluster, url: undefined, jwtKeyFile: undefined };
const tcp = new SlurmQueue(overTcp);

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Each test may wait for a core another test file's array holds.
describe('slurm engine on the local cluster', { timeout: 2 * QUEUED_LIMIT_MS }, () => {
  it('runs a stand-in trainer that reads every line of an sft export to success, with its logs', async () => {
    const dir = jobDir('slurm-sft');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft', 4));
    const started = Date.now();
    const { handle, created } = await tcp.submit(spec({ workdir: dir, key: jobKey(['a', 'b', dir], 'sft'), command: DRY_RUN_COMMAND, datasetPath: dataset }));
    expect(created).toBe(true);
    expect(handle.engine).toBe('slurm');
    expect(handle.logPath).toBe(join(dir, `slurm-${handle.id}.out`));
    const status = await waitForState(tcp, handle, ['succeeded', 'failed', 'cancelled']);
    process.stderr.write(`[slurm] submit → ${status.state} in ${Date.now() - started} ms\n`);
    expect(status).toMatchObject({ state: 'succeeded', rawState: 'COMPLETED', exitCode: 0, signal: null });
    expect(status.endedAt).not.toBeNull();
    const logs = await tcp.logs(handle);
    expect(logs.text).toContain(`dry run: read 4 sft record(s) from ${dataset}`);
    expect(logs.source).toBe(handle.logPath);
  });

  it('gives the command its placeholders and environment, the Slurm job id included', async () => {
    const dir = jobDir('slurm-env');
    const dataset = writeDataset(dir, 'swebench', sampleLines('swebench', 2));
    const command = 'echo "id={job_id} env=$BUGBENCH_JOB_ID fmt={format} kind=$BUGBENCH_JOB_KIND cwd=$(pwd) extra=$EXTRA"; wc -l < {dataset}';
    const { handle } = await tcp.submit(
      spec({ workdir: dir, key: uniqueKey('env'), command, datasetPath: dataset, format: 'swebench', env: { EXTRA: 'it works' } }),
    );
    await waitForState(tcp, handle, ['succeeded']);
    const { text } = await tcp.logs(handle);
    expect(text).toContain(`id=${handle.id} env=${handle.id} fmt=swebench kind=sft cwd=${dir} extra=it works`);
    expect(text.trim().split('\n').at(-1)).toBe('2');
  });

  it('fails a job whose dataset has a line that is not JSON, saying which', async () => {
    const dir = jobDir('slurm-bad-data');
    const dataset = writeDataset(dir, 'sft', [sampleLines('sft', 1)[0]!, '{"messages": [']);
    const { handle } = await tcp.submit(spec({ workdir: dir, key: uniqueKey('bad-data'), command: DRY_RUN_COMMAND, datasetPath: dataset }));
    const status = await waitForState(tcp, handle, ['succeeded', 'failed']);
    expect(status).toMatchObject({ state: 'failed', exitCode: 1 });
    expect((await tcp.logs(handle)).text).toContain(`line 2 of ${dataset} is not JSON`);
  });

  it('ends a command that exits 3 as failed with exit code 3', async () => {
    const dir = jobDir('slurm-exit3');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const { handle } = await tcp.submit(spec({ workdir: dir, key: uniqueKey('exit3'), command: 'echo about to fail; exit 3', datasetPath: dataset }));
    const status = await waitForState(tcp, handle, ['succeeded', 'failed']);
    expect(status).toMatchObject({ state: 'failed', rawState: 'FAILED', exitCode: 3, signal: null, reason: 'NonZeroExitCode' });
    expect((await tcp.logs(handle)).text).toContain('about to fail');
  });

  it('cancels a long job: it ends cancelled, and a new submission of its key is a new job', async () => {
    const dir = jobDir('slurm-cancel');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const jobSpec = spec({ workdir: dir, key: uniqueKey('cancel'), command: 'echo started; sleep 300', datasetPath: dataset });
    const { handle } = await tcp.submit(jobSpec);
    await waitForState(tcp, handle, ['running']);
    await tcp.cancel(handle);
    const status = await waitForState(tcp, handle, ['cancelled', 'failed', 'succeeded']);
    expect(status).toMatchObject({ state: 'cancelled', rawState: 'CANCELLED', exitCode: null });
    await tcp.cancel(handle); // a second cancel leaves it as it is
    expect((await tcp.status(handle)).state).toBe('cancelled');

    const again = await tcp.submit({ ...jobSpec, command: 'echo retry' });
    expect(again.created).toBe(true);
    expect(again.handle.id).not.toBe(handle.id);
    expect((await waitForState(tcp, again.handle, ['succeeded', 'failed'])).state).toBe('succeeded');
    expect((await tcp.find(jobSpec.key))?.id).toBe(again.handle.id);
  });

  it('gives the same job for the same submission twice, and finds it by key', async () => {
    const dir = jobDir('slurm-twice');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const jobSpec = spec({ workdir: dir, key: jobKey([`bug-${randomBytes(4).toString('hex')}`, 'bug-2'], 'sft'), command: 'sleep 2', datasetPath: dataset });
    const first = await tcp.submit(jobSpec);
    const second = await tcp.submit(jobSpec);
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.handle.id).toBe(first.handle.id);
    expect(await tcp.find(jobSpec.key)).toEqual(second.handle);
    await waitForState(tcp, first.handle, ['succeeded']);
    expect((await tcp.submit(jobSpec)).handle.id).toBe(first.handle.id);
  });

  it('reads only the tail of a long log', async () => {
    const dir = jobDir('slurm-tail');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const { handle } = await tcp.submit(spec({ workdir: dir, key: uniqueKey('tail'), command: 'seq 1 5000', datasetPath: dataset }));
    await waitForState(tcp, handle, ['succeeded']);
    const logs = await tcp.logs(handle, { tailBytes: 100 });
    expect(logs.truncated).toBe(true);
    expect(logs.text.endsWith('4999\n5000\n')).toBe(true);
    expect(logs.text.length).toBeLessThanOrEqual(100);
    expect(logs.text.split('\n')[0]).toMatch(/^\d+$/);
  });

  it('works over the unix socket with local auth', async () => {
    const socket = new SlurmQueue(overSocket);
    const dir = jobDir('slurm-socket');
    const dataset = writeDataset(dir, 'rl', sampleLines('rl'));
    const { handle } = await socket.submit(spec({ workdir: dir, key: uniqueKey('socket'), command: DRY_RUN_COMMAND, datasetPath: dataset, format: 'rl' }));
    expect((await waitForState(socket, handle, ['succeeded', 'failed'])).state).toBe('succeeded');
    expect((await socket.logs(handle)).text).toContain('dry run: read 3 rl record(s)');
    expect((await socket.health()).ok).toBe(true);
  });

  it('reports a token the cluster does not accept as an authentication error', async () => {
    const dir = jobDir('slurm-badtoken');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const forged = mintToken(randomBytes(32), cluster.user!, Math.floor(Date.now() / 1000));
    const queue = new SlurmQueue({ ...overTcp, jwtKeyFile: undefined, token: forged });
    const key = uniqueKey('badtoken');
    const error = await queue.submit(spec({ workdir: dir, key, command: 'true', datasetPath: dataset })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrainingAuthError);
    expect((error as TrainingAuthError).code).toBe('BB_TRAINING_AUTH');
    expect((error as Error).message).toMatch(/HTTP 500 .*token slurmctld refused/);
    expect((error as Error).message).toContain('SLURM_JWT');
    const health = await queue.health();
    expect(health.ok).toBe(false);
    expect(health.detail).toContain('token');
    expect(await tcp.find(key)).toBeNull();
  });

  it('refuses an expired token before sending anything', async () => {
    const key = readFileSync(cluster.jwtKeyFile!);
    const expired = mintToken(key, cluster.user!, Math.floor(Date.now() / 1000) - 7200, 60);
    const queue = new SlurmQueue({ ...overTcp, jwtKeyFile: undefined, token: expired });
    await expect(queue.find('anything')).rejects.toThrow(/token expired at .*scontrol token/);
  });

  it('reports a key file that cannot be read', async () => {
    const queue = new SlurmQueue({ ...overTcp, jwtKeyFile: '/nonexistent/jwt.key' });
    await expect(queue.find('anything')).rejects.toMatchObject({ code: 'BB_TRAINING_AUTH', message: expect.stringContaining('/nonexistent/jwt.key') });
  });

  it('says clearly that nothing answers, and submits nothing', async () => {
    const dir = jobDir('slurm-unreachable');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const url = `http://127.0.0.1:${await closedPort()}`;
    const key = uniqueKey('unreachable');
    const down = new SlurmQueue({ ...overTcp, url });
    const error = await down.submit(spec({ workdir: dir, key, command: 'true', datasetPath: dataset })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrainingEngineUnreachableError);
    expect((error as TrainingEngineUnreachableError).code).toBe('BB_TRAINING_UNREACHABLE');
    expect((error as Error).message).toContain(`does not answer at ${url} (connection refused)`);
    expect((error as Error).message).toContain('scripts/slurm-up');
    const noSocket = new SlurmQueue({ ...overSocket, socket: join(dir, 'no.sock') });
    await expect(noSocket.find(key)).rejects.toMatchObject({ code: 'BB_TRAINING_UNREACHABLE', message: expect.stringContaining('no such socket') });
    expect(await tcp.find(key)).toBeNull();
    expect((await down.health()).ok).toBe(false);
  });

  it('fails at submit a job whose owner does not exist on the node, instead of leaving it pending for ever', async () => {
    const dir = jobDir('slurm-ghost');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const ghost = new SlurmQueue({ ...overTcp, user: `ghost${randomBytes(3).toString('hex')}` });
    const key = uniqueKey('ghost');
    await expect(ghost.submit(spec({ workdir: dir, key, command: 'true', datasetPath: dataset }))).rejects.toThrow(
      /cannot run it: the job's owner \(uid \d+\) is not a user on the cluster's nodes.*It was cancelled/,
    );
    const left = await tcp.find(key);
    expect(left).not.toBeNull();
    expect((await tcp.status(left!)).state).toBe('cancelled');
  });

  it('reports a job the controller no longer knows as unknown, with the reason', async () => {
    const status = await tcp.status({ engine: 'slurm', id: '99999999', key: 'gone', name: 'gone', submittedAt: new Date().toISOString() });
    expect(status.state).toBe('unknown');
    expect(status.reason).toContain('MinJobAge');
    await tcp.cancel({ engine: 'slurm', id: '99999999', key: 'gone', name: 'gone', submittedAt: new Date().toISOString() });
  });

  it('refuses an unknown partition with the engine\'s own words', async () => {
    const dir = jobDir('slurm-partition');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const queue = new SlurmQueue({ ...overTcp, partition: 'nosuchpartition' });
    await expect(queue.submit(spec({ workdir: dir, key: uniqueKey('partition'), command: 'true', datasetPath: dataset }))).rejects.toMatchObject({
      code: 'BB_TRAINING_ENGINE',
      message: expect.stringContaining('Invalid partition name specified'),
    });
    expect((await queue.health()).ok).toBe(false);
  });

  it('asks for GPUs per node; a cluster without any says so', async () => {
    const dir = jobDir('slurm-gpu');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const key = uniqueKey('gpu');
    await expect(tcp.submit(spec({ workdir: dir, key, command: 'nvidia-smi', datasetPath: dataset, resources: { gpus: 1, timeLimitMinutes: 5 } }))).rejects.toMatchObject({
      code: 'BB_TRAINING_ENGINE',
      message: expect.stringContaining('Requested node configuration is not available'),
    });
    // Slurm keeps the refused job as FAILED (BadConstraints), so the key is free for a new try.
    const refused = await tcp.find(key);
    expect(await tcp.status(refused!)).toMatchObject({ state: 'failed', reason: 'BadConstraints' });
  });

  it('answers the health check, as doctor shows it', async () => {
    const health = await tcp.health();
    expect(health.ok).toBe(true);
    expect(health.detail).toMatch(/^Slurm 22\.05\.\d+: slurmctld \S+ UP \(primary\), slurmrestd v0\.0\.38 at http:\/\/127\.0\.0\.1:\d+, as bugbench, partition debug$/);
    const fromSettings = await clusterHealth(() => localClusterSettings());
    expect(fromSettings).toMatchObject({ ok: true, engine: 'slurm' });
  });
});

