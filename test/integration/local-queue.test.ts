/**
 * The local engine: detached processes on this machine whose state lives in
 * files, so a process that did not start a job can follow it, read its logs
 * and cancel it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { workspacePath } from '../../src/paths.js';
import { DRY_RUN_COMMAND } from '../../src/training/command-template.js';
import { LocalQueue } from '../../src/training/local/engine.js';
import { processStartTime } from '../../src/training/local/process.js';
import type { JobHandle, JobSpec } from '../../src/training/types.js';
import { DIST } from '../helpers/cli.js';
import { jobDir, sampleLines, spec, uniqueKey, waitForState, writeDataset } from '../helpers/training.js';

const INDEX = workspacePath('local-jobs-test');
const queue = new LocalQueue(INDEX);

/** Runs one queue call in a separate node process (the built code), as a later bugbench would. */
async function inAnotherProcess(call: 'submit' | 'status' | 'logs' | 'cancel' | 'find', arg: JobSpec | JobHandle | string): Promise<unknown> {
  const script = `
    const { LocalQueue } = await import(${JSON.stringify(join(DIST, 'training', 'local', 'engine.js'))});
    const queue = new LocalQueue(${JSON.stringify(INDEX)});
    const result = await queue[${JSON.stringify(call)}](${JSON.stringify(arg)});
    process.stdout.write(JSON.stringify(result ?? null));
  `;
  const { stdout } = await execa('node', ['--input-type=module', '-e', script]);
  return JSON.parse(stdout);
}

describe('local engine', () => {
  it('runs the stand-in trainer to success, with exit code, logs and state files in the job folder', async () => {
    const dir = jobDir('local-ok');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft', 2));
    const key = uniqueKey('local-ok');
    const { handle, created } = await queue.submit(spec({ workdir: dir, key, command: `${DRY_RUN_COMMAND}; echo "id={job_id} $BUGBENCH_JOB_ID"`, datasetPath: dataset }));
    expect(created).toBe(true);
    // The engine's id is the key: the job's record adds "local-" once (it read "local-local-…").
    expect(handle.id).toBe(key);
    const status = await waitForState(queue, handle, ['succeeded', 'failed', 'cancelled']);
    expect(status).toMatchObject({ state: 'succeeded', rawState: 'exited 0', exitCode: 0 });
    const logs = await queue.logs(handle);
    expect(logs.text).toContain(`dry run: read 2 sft record(s) from ${dataset}`);
    expect(logs.text).toContain(`id=${handle.id} ${handle.id}`);
    const state = join(dir, `bugbench-${handle.id}`);
    expect(readFileSync(join(state, 'exit-code'), 'utf8').trim()).toBe('0');
    expect(JSON.parse(readFileSync(join(state, 'job.json'), 'utf8'))).toMatchObject({ id: handle.id, key: handle.key });
  });

  it('ends a command that exits 3 as failed with exit code 3', async () => {
    const dir = jobDir('local-exit3');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const { handle } = await queue.submit(spec({ workdir: dir, key: uniqueKey('local-exit3'), command: 'exit 3', datasetPath: dataset }));
    expect(await waitForState(queue, handle, ['succeeded', 'failed'])).toMatchObject({ state: 'failed', exitCode: 3, reason: 'the command exited with 3' });
  });

  it('gives the same job for the same submission twice', async () => {
    const dir = jobDir('local-twice');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const jobSpec = spec({ workdir: dir, key: uniqueKey('local-twice'), command: 'sleep 1', datasetPath: dataset });
    const first = await queue.submit(jobSpec);
    const second = await queue.submit(jobSpec);
    expect(second).toEqual({ handle: first.handle, created: false });
    expect(await queue.find(jobSpec.key)).toEqual(first.handle);
    await waitForState(queue, first.handle, ['succeeded']);
  });

  it('keeps running after the process that submitted it exits; another process follows, reads and cancels it', async () => {
    const dir = jobDir('local-detached');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const key = uniqueKey('local-detached');
    const submitted = (await inAnotherProcess('submit', spec({ workdir: dir, key, command: 'echo started; sleep 300', datasetPath: dataset }))) as { handle: JobHandle };
    const handle = submitted.handle;
    expect(await queue.find(key)).toEqual(handle);
    expect((await waitForState(queue, handle, ['running'])).rawState).toMatch(/^running pid \d+$/);
    await expect.poll(async () => (await queue.logs(handle)).text).toContain('started');

    await inAnotherProcess('cancel', handle);
    expect(await inAnotherProcess('status', handle)).toMatchObject({ state: 'cancelled' });
    const { pid } = JSON.parse(readFileSync(join(dir, `bugbench-${handle.id}`, 'job.json'), 'utf8')) as { pid: number };
    expect(processStartTime(pid)).toBeNull(); // gone, or a zombie no one reaps

    const retry = await queue.submit(spec({ workdir: dir, key, command: 'true', datasetPath: dataset }));
    expect(retry.created).toBe(true);
    expect(retry.handle.id).toBe(`${handle.id}-2`);
    await waitForState(queue, retry.handle, ['succeeded']);
  });

  it('reports a process that died without recording its exit as failed', async () => {
    const dir = jobDir('local-vanished');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    const { handle } = await queue.submit(spec({ workdir: dir, key: uniqueKey('local-vanished'), command: 'sleep 300', datasetPath: dataset }));
    await waitForState(queue, handle, ['running']);
    const { pid } = JSON.parse(readFileSync(join(dir, `bugbench-${handle.id}`, 'job.json'), 'utf8')) as { pid: number };
    process.kill(-pid, 'SIGKILL');
    const status = await waitForState(queue, handle, ['failed']);
    expect(status.reason).toContain(`process ${pid} ended without recording an exit code`);
  });

  it('refuses a working directory that does not exist', async () => {
    const dir = jobDir('local-nodir');
    const dataset = writeDataset(dir, 'sft', sampleLines('sft'));
    await expect(queue.submit(spec({ workdir: join(dir, 'missing'), key: uniqueKey('local-nodir'), command: 'true', datasetPath: dataset }))).rejects.toMatchObject({
      code: 'BB_JOB_SPEC',
    });
  });
});
