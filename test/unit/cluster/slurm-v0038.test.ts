/** The v0.0.38 mapping, on answers captured from the real Slurm 22.05 of scripts/slurm-up. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/paths.js';
import { slurmApi } from '../../../src/cluster/slurm/versions.js';
import { jobStatus, v0038 } from '../../../src/cluster/slurm/v0038.js';
import type { JobSpec } from '../../../src/training/types.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'slurm', name), 'utf8'));
const firstJob = (name: string) => v0038.parseJobs(fixture(name))[0]!;

const spec: JobSpec = {
  kind: 'sft',
  name: 'train-sft',
  dataset: { path: '/data/ds.jsonl', format: 'sft' },
  command: 'true',
  workdir: '/data',
  key: 'k1',
};

describe('slurmrestd v0.0.38 mapping', () => {
  it('is the version registered under its name', () => {
    expect(slurmApi('v0.0.38')).toBe(v0038);
    expect(slurmApi('v0.0.41')).toBeUndefined();
  });

  it('builds a submit body with the environment as an object, always present', () => {
    const body = v0038.submitBody({ spec, script: '#!/bin/bash\ntrue\n', environment: { PATH: '/usr/bin' }, partition: undefined, outputPattern: '/data/slurm-%j.out', comment: 'bugbench:k1' });
    expect(body).toEqual({
      script: '#!/bin/bash\ntrue\n',
      job: {
        name: 'train-sft',
        current_working_directory: '/data',
        standard_output: '/data/slurm-%j.out',
        comment: 'bugbench:k1',
        tasks: 1,
        cpus_per_task: 1,
        environment: { PATH: '/usr/bin' },
      },
    });
  });

  it('maps resources and partition to their fields', () => {
    const body = v0038.submitBody({
      spec: { ...spec, resources: { cpus: 8, memoryMb: 64000, gpus: 4, timeLimitMinutes: 720 } },
      script: '',
      environment: {},
      partition: 'gpu',
      outputPattern: '/o',
      comment: 'c',
    }) as { job: Record<string, unknown> };
    expect(body.job).toMatchObject({ partition: 'gpu', cpus_per_task: 8, memory_per_node: 64000, gpus_per_node: '4', time_limit: 720 });
  });

  it('reads a completed job', () => {
    const job = firstJob('job-completed.json');
    expect(job.comment).toMatch(/^bugbench:/);
    expect(job.user).toBe('bugbench');
    expect(job.outputPattern).toMatch(/slurm-%j\.out$/);
    expect(job.node).toBe('vm');
    expect(job.status).toMatchObject({ state: 'succeeded', rawState: 'COMPLETED', exitCode: 0, signal: null, reason: null });
    expect(job.status.startedAt).toMatch(/^\d{4}-/);
    expect(job.status.endedAt).toMatch(/^\d{4}-/);
  });

  it('decodes the wait status of a job that exited 3 (768)', () => {
    expect(firstJob('job-exit3.json').status).toMatchObject({ state: 'failed', rawState: 'FAILED', exitCode: 3, signal: null, reason: 'NonZeroExitCode' });
  });

  it('reads a cancelled job as ended by a signal', () => {
    expect(firstJob('job-cancelled.json').status).toMatchObject({ state: 'cancelled', rawState: 'CANCELLED', exitCode: null, signal: 15 });
    // Cancelled while starting under load, a job has reported exit 1: still no exit code of the command's.
    expect(jobStatus({ job_state: 'CANCELLED', exit_code: 256, user_name: 'root', start_time: 1, end_time: 2 })).toMatchObject({ state: 'cancelled', exitCode: null });
  });

  it('reads a running job without an exit code or end', () => {
    expect(firstJob('job-running.json').status).toMatchObject({ state: 'running', rawState: 'RUNNING', exitCode: null, endedAt: null });
  });

  it('fails a job whose owner is unknown on the node (PENDING, BeginTime, no user name)', () => {
    const job = firstJob('job-unknown-owner.json');
    expect(job.user).toBeNull();
    expect(job.status.state).toBe('failed');
    expect(job.status.rawState).toBe('PENDING');
    expect(job.status.exitCode).toBeNull();
    expect(job.status.reason).toMatch(/owner \(uid 99\) is not a user on the cluster's nodes/);
  });

  it('keeps a pending job of a known user queued, with its reason and no start time', () => {
    const status = jobStatus({ job_state: 'PENDING', state_reason: 'Resources', user_name: 'alice', start_time: 1795345769, exit_code: 0 });
    expect(status).toMatchObject({ state: 'queued', reason: 'Resources', startedAt: null, exitCode: null });
  });

  it('names why a job failed for other reasons, and flags states it does not know', () => {
    expect(jobStatus({ job_state: 'TIMEOUT', state_reason: 'TimeLimit', user_name: 'a', exit_code: 0 }).reason).toBe('the job reached its time limit');
    expect(jobStatus({ job_state: 'OUT_OF_MEMORY', user_name: 'a', exit_code: 0 }).state).toBe('failed');
    expect(jobStatus({ job_state: 'COMPLETING', user_name: 'a' }).state).toBe('running');
    expect(jobStatus({ job_state: 'WEIRD', user_name: 'a' })).toMatchObject({ state: 'unknown', rawState: 'WEIRD', reason: expect.stringContaining('WEIRD') });
  });

  it('reads errors under each of the keys 22.05 uses', () => {
    expect(v0038.parseErrors(fixture('error-invalid-job.json'))).toEqual([{ code: 2017, message: 'Invalid job id specified: Unable to find JobId=99999', source: 'slurm_load_job' }]);
    expect(v0038.parseErrors(fixture('error-partition.json'))).toEqual([{ code: 2000, message: 'Invalid partition name specified', source: '' }]);
    expect(v0038.parseErrors(fixture('error-no-environment.json')).map((e) => e.code)).toEqual([2127, 9001]);
  });

  it('tells a refused token (HTTP 500, Unspecified error) and a missing job from other failures', () => {
    const kind = (status: number, name: string) => v0038.classifyFailure(status, v0038.parseErrors(fixture(name)));
    expect(kind(500, 'error-refused-token.json')).toBe('auth');
    expect(kind(500, 'error-invalid-job.json')).toBe('job-not-found');
    expect(kind(500, 'error-partition.json')).toBe('other');
    expect(kind(400, 'error-no-environment.json')).toBe('other');
    expect(v0038.classifyFailure(401, [])).toBe('auth');
  });

  it('reads ping, release and submit answers', () => {
    expect(v0038.parsePing(fixture('ping.json'))).toEqual({ ok: true, detail: 'slurmctld vm UP (primary)' });
    expect(v0038.parsePing({ pings: [{ hostname: 'h', ping: 'DOWN', mode: 'primary' }] }).ok).toBe(false);
    expect(v0038.release(fixture('ping.json'))).toBe('22.05.8');
    expect(v0038.parseSubmit({ errors: [], job_id: 42, step_id: 'BATCH' })).toBe('42');
    expect(v0038.parseSubmit({ errors: [] })).toBeNull();
  });
});
