import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entrypoint, isDuplicateSubmission, jobStatus, submissionId, submitBody, submittedId, versionLine } from '../../../src/training/ray/mapping.js';
import type { JobSpec } from '../../../src/training/types.js';

const spec: JobSpec = {
  kind: 'sft',
  name: 'n',
  dataset: { path: '/d/x.jsonl', format: 'sft' },
  command: '',
  workdir: '/d',
  key: 'k',
};

describe('Ray Jobs mapping', () => {
  it('numbers retries of a key in the submission id', () => {
    expect(submissionId('abc', 1)).toBe('bugbench-abc');
    expect(submissionId('abc', 3)).toBe('bugbench-abc-3');
  });

  it('runs the command with bash in the job folder, under timeout when there is a limit', () => {
    const dir = mkdtempSync(join(tmpdir(), "bugbench ray '"));
    const line = entrypoint({ ...spec, workdir: dir }, 'echo "$0 in $(pwd)"; exit 4');
    let out = '';
    try {
      execFileSync('/bin/sh', ['-c', line], { encoding: 'utf8' });
    } catch (error) {
      out = (error as { stdout: string; status: number }).stdout;
      expect((error as { status: number }).status).toBe(4);
    }
    expect(out).toBe(`bash in ${dir}\n`);
    expect(entrypoint({ ...spec, resources: { timeLimitMinutes: 90 } }, 'true')).toBe("cd /d && exec timeout --kill-after=30 90m bash -c true");
  });

  it('sends resources in Ray\'s units and the key in metadata', () => {
    expect(submitBody({ ...spec, resources: { cpus: 4, gpus: 2, memoryMb: 1024 } }, 'true', 'bugbench-k')).toMatchObject({
      submission_id: 'bugbench-k',
      entrypoint_num_cpus: 4,
      entrypoint_num_gpus: 2,
      entrypoint_memory: 1024 * 1024 * 1024,
      metadata: { bugbench_key: 'k', job_name: 'n', bugbench_format: 'sft' },
      runtime_env: { env_vars: { BUGBENCH_JOB_ID: 'bugbench-k', BUGBENCH_ENGINE: 'ray' } },
    });
    expect(submitBody(spec, 'true', 'x')).not.toHaveProperty('entrypoint_num_gpus');
  });

  it('maps JobDetails statuses, with times in milliseconds', () => {
    const details = { status: 'SUCCEEDED', message: 'Job finished successfully.', driver_exit_code: 0, start_time: 1_800_000_000_000, end_time: 1_800_000_005_000 };
    expect(jobStatus(details)).toEqual({
      state: 'succeeded',
      rawState: 'SUCCEEDED',
      exitCode: 0,
      signal: null,
      reason: 'Job finished successfully.',
      startedAt: '2027-01-15T08:00:00.000Z',
      endedAt: '2027-01-15T08:00:05.000Z',
    });
    expect(jobStatus({ status: 'PENDING', start_time: 1 })?.state).toBe('queued');
    expect(jobStatus({ status: 'RUNNING' })).toMatchObject({ state: 'running', exitCode: null, endedAt: null });
    expect(jobStatus({ status: 'STOPPED', message: 'Job was intentionally stopped.' })).toMatchObject({ state: 'cancelled', exitCode: null });
    expect(jobStatus({ status: 'NEW_ONE' })).toMatchObject({ state: 'unknown', reason: expect.stringContaining('NEW_ONE') });
    expect(jobStatus({ nothing: true })).toBeNull();
  });

  it('keeps the first line of a failure message, and names a time limit', () => {
    const failed = { status: 'FAILED', driver_exit_code: 2, message: 'Job entrypoint command failed with exit code 2, last available logs:\nline\nline' };
    expect(jobStatus(failed)).toMatchObject({ state: 'failed', exitCode: 2, reason: 'Job entrypoint command failed with exit code 2, last available logs:' });
    expect(jobStatus({ status: 'FAILED', driver_exit_code: 124, message: 'x' })?.reason).toContain('time limit');
  });

  it('reads submit and version answers, and knows a duplicate submission', () => {
    expect(submittedId({ job_id: 'raysubmit_1', submission_id: 'raysubmit_1' })).toBe('raysubmit_1');
    expect(submittedId({ job_id: 'old_style' })).toBe('old_style');
    expect(versionLine({ version: '1', ray_version: '2.40.0' })).toBe('Ray 2.40.0 (Jobs API 1)');
    expect(isDuplicateSubmission(400, 'ValueError: Job with submission_id x already exists. Please use a different submission_id.')).toBe(true);
    expect(isDuplicateSubmission(500, 'already exists')).toBe(false);
  });
});
