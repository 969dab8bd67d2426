import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BwrapEngine } from '../../../../src/sandbox/bwrap/engine.js';
import { ensurePrivateRoot, readRecords, removeSandboxState, sandboxDir, writeRecord, type SandboxRecord } from '../../../../src/sandbox/bwrap/state.js';
import { LABEL_RUN, ownerLabels } from '../../../../src/sandbox/owner.js';
import { processStartTime } from '../../../../src/process-identity.js';

const root = mkdtempSync(join(tmpdir(), 'bb-bwrap-state-'));
process.env.BUGBENCH_BWRAP_STATE = root;
afterAll(() => {
  delete process.env.BUGBENCH_BWRAP_STATE;
  rmSync(root, { recursive: true, force: true });
});

async function recordOf(id: string, run: string, extra: Partial<SandboxRecord> = {}): Promise<SandboxRecord> {
  mkdirSync(sandboxDir(root, id), { recursive: true });
  const record = { id, image: 'x', labels: { [LABEL_RUN]: run, ...ownerLabels() }, pid: 999_999_999, pidStart: '1', ...extra };
  await writeRecord(root, record);
  return record;
}

describe('bwrap sandbox records', () => {
  it('name a sandbox whose processes ended by themselves as stopped, but not one bugbench is removing', async () => {
    const engine = new BwrapEngine(`bwrap://${root}`);
    await recordOf('aaa', 'run-1-r1', { removing: true });
    expect(await engine.stoppedWork(['run-1'])).toBeUndefined();
    await recordOf('bbb', 'run-1-r2');
    expect(await engine.stoppedWork(['run-1'])).toBe('bwrap sandbox bbb of run-1-r2');
    expect(await engine.stoppedWork(['run-2'])).toBeUndefined();
    expect((await engine.reapWork(['run-1'])).removed.sort()).toEqual(['aaa', 'bbb']);
  });

  it('go with their processes (the same process: pid and start time) and their folder', async () => {
    const holder = spawn('sleep', ['30']);
    await new Promise((resolve) => holder.on('spawn', resolve));
    const record = await recordOf('ccc', 'run-3', { pid: holder.pid, pidStart: processStartTime(holder.pid!) });
    const ended = new Promise((resolve) => holder.on('exit', resolve));
    await removeSandboxState(root, record);
    await ended;
    expect(holder.signalCode).toBe('SIGKILL');
    expect(existsSync(sandboxDir(root, 'ccc'))).toBe(false);
    expect(await readRecords(root)).toEqual([]);
  });
});

describe('a sandbox whose record never got its pid', () => {
  it('has its processes found by its folder and ended with it (its maker died while making it)', async () => {
    const record = await recordOf('ddd', 'run-4', { pid: undefined, pidStart: undefined });
    // Stands for a bwrap whose command line names the sandbox's folder (`--bind …/merged /`).
    const holder = spawn('sh', ['-c', 'sleep 30', `${sandboxDir(root, 'ddd')}/merged`]);
    await new Promise((resolve) => holder.on('spawn', resolve));
    const ended = new Promise((resolve) => holder.on('exit', resolve));
    await removeSandboxState(root, record);
    await ended;
    expect(holder.signalCode).toBe('SIGKILL');
    expect(existsSync(sandboxDir(root, 'ddd'))).toBe(false);
  });
});

describe('the state folder', () => {
  it('is made this user\'s alone, tightened when looser, and refused when it is a link', async () => {
    const fresh = join(root, 'fresh');
    await ensurePrivateRoot(fresh);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    const loose = join(root, 'loose');
    mkdirSync(loose);
    chmodSync(loose, 0o755);
    await ensurePrivateRoot(loose);
    expect(statSync(loose).mode & 0o777).toBe(0o700);
    const link = join(root, 'link');
    symlinkSync(fresh, link);
    await expect(ensurePrivateRoot(link)).rejects.toThrow(/is a symbolic link; remove it, or set BUGBENCH_BWRAP_STATE/);
  });
});
