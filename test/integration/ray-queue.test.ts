/**
 * The ray engine against our Ray-shaped Jobs server (test/helpers/ray-jobs-server.ts):
 * Ray cannot be installed here, so the server follows Ray's documented REST
 * shapes and really runs each entrypoint.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrainingEngineUnreachableError, TrainingNotConfiguredError } from '../../src/errors.js';
import { DRY_RUN_COMMAND } from '../../src/training/command-template.js';
import { jobKey } from '../../src/training/job-key.js';
import { clusterHealth } from '../../src/training/queue.js';
import { RayQueue } from '../../src/training/ray/engine.js';
import { resolveTrainingSettings } from '../../src/training/settings.js';
import { startRayJobsServer, type RayJobsServer } from '../helpers/ray-jobs-server.js';
import { jobDir, sampleLines, spec, uniqueKey, waitForState, writeDataset } from '../helpers/training.js';

let server: RayJobsServer;
let queue: RayQueue;

beforeAll(async () => {
  server = await startRayJobsServer();
  queue = new RayQueue({ address: server.url, source: 'test' });
});
afterAll(async () => {
  await server.close();
});

describe('ray engine over the Ray Jobs REST API', () => {
  it('submits with the key as submission id, runs to success, and returns the logs', async () => {
    const dir = jobDir('ray-sft');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft', 5));
    const key = jobKey(['ray-bug-1', 'ray-bug-2', dir], 'sft');
    const jobSpec = spec({ workdir: dir, key, command: `${DRY_RUN_COMMAND} && echo "cwd=$(pwd) id={job_id}"`, datasetPath: dataset, resources: { cpus: 2, gpus: 1, memoryMb: 512 } });
    const { handle, created } = await queue.submit(jobSpec);
    expect(created).toBe(true);
    expect(handle).toMatchObject({ engine: 'ray', id: `bugbench-${key}`, key });

    const post = server.requests.find((r) => r.method === 'POST' && r.path === '/api/jobs/');
    expect(post?.body).toMatchObject({
      submission_id: `bugbench-${key}`,
      entrypoint_num_cpus: 2,
      entrypoint_num_gpus: 1,
      entrypoint_memory: 512 * 1024 * 1024,
      metadata: { bugbench_key: key, bugbench_format: 'sft', job_name: jobSpec.name },
      runtime_env: { env_vars: { BUGBENCH_DATASET: dataset, BUGBENCH_JOB_ID: `bugbench-${key}` } },
    });

    const status = await waitForState(queue, handle, ['succeeded', 'failed', 'cancelled']);
    expect(status).toMatchObject({ state: 'succeeded', rawState: 'SUCCEEDED', exitCode: 0, reason: 'Job finished successfully.' });
    expect(status.endedAt).not.toBeNull();
    const logs = await queue.logs(handle);
    expect(logs.text).toContain(`dry run: read 5 sft record(s) from ${dataset}`);
    expect(logs.text).toContain(`cwd=${dir} id=bugbench-${key}`);
    expect(logs.source).toBe(`${server.url}/api/jobs/bugbench-${key}/logs`);
    expect((await queue.logs(handle, { tailBytes: 20 })).truncated).toBe(true);
  });

  it('reports queued, then running, and a failed command with its exit code and a one-line reason', async () => {
    const dir = jobDir('ray-exit3');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const { handle } = await queue.submit(spec({ workdir: dir, key: uniqueKey('ray-exit3'), command: 'sleep 0.5; echo failing; exit 3', datasetPath: dataset }));
    expect((await queue.status(handle)).state).toBe('queued');
    await waitForState(queue, handle, ['running']);
    const status = await waitForState(queue, handle, ['succeeded', 'failed']);
    expect(status).toMatchObject({ state: 'failed', rawState: 'FAILED', exitCode: 3 });
    expect(status.reason).toBe('Job entrypoint command failed with exit code 3, last available logs:');
  });

  it('stops a running job: it ends cancelled, and a retry of its key is a new submission', async () => {
    const dir = jobDir('ray-stop');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const key = uniqueKey('ray-stop');
    const jobSpec = spec({ workdir: dir, key, command: 'echo started; sleep 300', datasetPath: dataset });
    const { handle } = await queue.submit(jobSpec);
    await waitForState(queue, handle, ['running']);
    await queue.cancel(handle);
    const status = await waitForState(queue, handle, ['cancelled', 'failed', 'succeeded']);
    expect(status).toMatchObject({ state: 'cancelled', rawState: 'STOPPED', exitCode: null });
    await queue.cancel(handle); // nothing left to stop

    const retry = await queue.submit({ ...jobSpec, command: 'echo retried' });
    expect(retry).toMatchObject({ created: true, handle: { id: `bugbench-${key}-2` } });
    expect((await waitForState(queue, retry.handle, ['succeeded', 'failed'])).state).toBe('succeeded');
    expect((await queue.find(key))?.id).toBe(`bugbench-${key}-2`);
    expect((await queue.submit(jobSpec)).handle.id).toBe(`bugbench-${key}-2`);
  });

  it('gives the same job for the same submission twice', async () => {
    const dir = jobDir('ray-twice');
    const dataset = writeDataset(dir, 'rl', sampleLines('rl'));
    const jobSpec = spec({ workdir: dir, key: uniqueKey('ray-twice'), command: 'sleep 1', datasetPath: dataset, format: 'rl' });
    const [first, second] = await Promise.all([queue.submit(jobSpec), queue.submit(jobSpec)]);
    expect(first!.handle.id).toBe(second!.handle.id);
    expect([first!.created, second!.created].sort()).toEqual([false, true]);
    const posts = server.requests.filter((r) => r.method === 'POST' && (r.body as { submission_id?: string })?.submission_id === first!.handle.id);
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(await queue.find(jobSpec.key)).toMatchObject({ id: first!.handle.id });
    expect((await queue.submit(jobSpec)).created).toBe(false);
  });

  it('runs the command under coreutils timeout for its time limit', async () => {
    const dir = jobDir('ray-timeout');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const { handle } = await queue.submit(spec({ workdir: dir, key: uniqueKey('ray-timeout'), command: 'sleep 300', datasetPath: dataset }));
    await waitForState(queue, handle, ['running']);
    const post = server.requests.find((r) => (r.body as { submission_id?: string })?.submission_id === handle.id);
    expect((post?.body as { entrypoint: string }).entrypoint).toMatch(/^cd \S+ && exec timeout --kill-after=30 5m bash -c /);
    await queue.cancel(handle);
  });

  it('says a job Ray does not know is unknown, and an unknown key finds nothing', async () => {
    const status = await queue.status({ engine: 'ray', id: 'bugbench-nothing', key: 'nothing', name: 'x', submittedAt: new Date().toISOString() });
    expect(status.state).toBe('unknown');
    expect(status.reason).toContain('no longer knows');
    expect(await queue.find('nothing-here')).toBeNull();
  });

  it('answers the health check with the Ray version', async () => {
    expect(await queue.health()).toEqual({ engine: 'ray', ok: true, detail: `Ray bugbench-test-ray (Jobs API 1) at ${server.url}` });
    const settings = resolveTrainingSettings({ env: { RAY_ADDRESS: server.url }, localDir: '/tmp/x' });
    expect(await clusterHealth(() => settings)).toMatchObject({ ok: true, engine: 'ray' });
  });

  it('says clearly when nothing answers at the address', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const down = new RayQueue({ address: `http://127.0.0.1:${port}`, source: 'test' });
    const dir = jobDir('ray-down');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const error = await down.submit(spec({ workdir: dir, key: uniqueKey('ray-down'), command: 'true', datasetPath: dataset })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrainingEngineUnreachableError);
    expect((error as Error).message).toContain(`the ray engine does not answer at http://127.0.0.1:${port} (connection refused)`);
    expect((await down.health()).ok).toBe(false);
  });

  it('wants the dashboard HTTP address, not a ray:// client address', () => {
    expect(() => new RayQueue({ address: 'ray://head:10001', source: 'RAY_ADDRESS' })).toThrow(TrainingNotConfiguredError);
  });
});
