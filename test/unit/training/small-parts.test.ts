/** The small pure pieces of the training queue: log tails, /proc parsing, accounts, spec checks. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobLogsUnavailableError } from '../../../src/errors.js';
import { validateSpec } from '../../../src/training/job-spec.js';
import { parseProcStat, processStartTime } from '../../../src/training/local/process.js';
import { readLogTail, tailText } from '../../../src/training/log-tail.js';
import { findAccount } from '../../../src/cluster/slurm/job-user.js';
import { checkHandle, type JobSpec } from '../../../src/training/types.js';

describe('log tails', () => {
  it('starts a cut tail at a whole line', () => {
    expect(tailText(Buffer.from('ne 1\nline 2\n'), true)).toBe('line 2\n');
    expect(tailText(Buffer.from('partial'), true)).toBe('…partial');
    // One line longer than the tail: its end, not nothing.
    expect(tailText(Buffer.from('end of a long line\n'), true)).toBe('…end of a long line\n');
    expect(tailText(Buffer.from('whole\n'), false)).toBe('whole\n');
  });

  it('reads the end of a file, an unwritten file as empty, and refuses a folder not on this machine', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bugbench-tail-'));
    writeFileSync(join(dir, 'out.log'), Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') + '\n');
    const tail = readLogTail(join(dir, 'out.log'), 20);
    expect(tail).toMatchObject({ truncated: true, text: 'line 98\nline 99\n' });
    expect(readLogTail(join(dir, 'out.log'), 1 << 20).text.split('\n')).toHaveLength(101);
    expect(readLogTail(join(dir, 'not-yet.log'))).toEqual({ text: '', truncated: false, source: join(dir, 'not-yet.log') });
    expect(() => readLogTail('/no/such/cluster/fs/slurm-1.out')).toThrow(JobLogsUnavailableError);
  });
});

describe('/proc/<pid>/stat', () => {
  it('finds state and start time after a command name with spaces and parentheses', () => {
    const stat = '1234 (my (odd) name) S 1 1234 1234 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10';
    expect(parseProcStat(stat)).toEqual({ state: 'S', startTime: '987654' });
    expect(parseProcStat('garbage')).toBeNull();
  });

  it('knows this process and not a pid that is free', () => {
    expect(processStartTime(process.pid)).toMatch(/^\d+$/);
    expect(processStartTime(2 ** 22 + 1)).toBeNull();
  });
});

describe('accounts', () => {
  it('reads a user\'s ids from passwd text', () => {
    const passwd = 'root:x:0:0:root:/root:/bin/bash\nbugbench:x:995:994::/nonexistent:/bin/bash\n';
    expect(findAccount(passwd, 'bugbench')).toEqual({ uid: 995, gid: 994 });
    expect(findAccount(passwd, 'bug')).toBeNull();
  });
});

describe('job spec checks', () => {
  const good: JobSpec = { kind: 'sft', name: 'n', dataset: { path: '/d/x.jsonl', format: 'sft' }, command: 'train {dataset}', workdir: '/d', key: 'abc-1' };

  it('returns the filled command for a good spec', () => {
    expect(validateSpec(good)).toBe('train /d/x.jsonl');
  });

  it.each([
    [{ kind: 'dpo' }, 'job kind must be one of sft, rl'],
    [{ name: ' ' }, 'one-line name'],
    [{ dataset: { path: 'x.jsonl', format: 'sft' } }, 'dataset path must be absolute'],
    [{ dataset: { path: '/x', format: 'csv' } }, 'dataset format must be one of swebench, sft, rl'],
    [{ workdir: 'rel' }, 'working directory must be absolute'],
    [{ key: 'Has Spaces' }, 'idempotency key'],
    [{ command: '  ' }, 'training command is empty'],
    [{ env: { 'BAD-NAME': '1' } }, 'BAD-NAME'],
    [{ resources: { cpus: 0 } }, 'cpus must be a whole number ≥ 1'],
    [{ resources: { gpus: 1.5 } }, 'gpus must be a whole number ≥ 0'],
    [{ command: 'train {data}' }, 'unknown placeholder {data}'],
  ])('refuses %j', (change, message) => {
    expect(() => validateSpec({ ...good, ...(change as Partial<JobSpec>) })).toThrow(message);
  });
});

describe('handles', () => {
  it('belong to the engine that made them', () => {
    const handle = { engine: 'ray' as const, id: 'bugbench-k', key: 'k', name: 'n', submittedAt: '2026-01-01T00:00:00.000Z' };
    expect(() => checkHandle(handle, 'ray')).not.toThrow();
    expect(() => checkHandle(handle, 'slurm')).toThrow('job bugbench-k belongs to the ray engine, not slurm');
  });
});
