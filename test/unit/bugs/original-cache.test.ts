import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { originalKey, OriginalRunCache } from '../../../src/bugs/original-cache.js';
import type { RunRecord } from '../../../src/bugs/test-run.js';

const artifact = { testScript: 'pytest tests', testParser: 'print({})', testFiles: ['tests/test_a.py'] };
const input = { imageId: 'sha256:aaa', baseCommit: 'abc', artifact, timeoutSec: 90 };

function run(dir: string, overrides: Partial<RunRecord> = {}): RunRecord {
  const logPath = join(dir, 'original.log');
  writeFileSync(logPath, 'PASSED tests/test_a.py::test_x\n');
  return {
    label: 'original', state: 'original', command: 'bash test_script.sh', exitCode: 0, durationMs: 1200, timedOut: false, limitSec: 90, logPath,
    results: { 'tests/test_a.py::test_x': 'passed' },
    parser: { command: 'python3 test_parser.py', exitCode: 0, durationMs: 40 },
    audit: { status: 'agrees', reader: 'pytest -rA' },
    ...overrides,
  } as RunRecord;
}

describe('the shared original run', () => {
  it('is keyed by the content: another image, script, parser, test file list or time limit is another key', () => {
    const key = originalKey(input);
    expect(originalKey({ ...input })).toBe(key);
    for (const other of [
      { ...input, imageId: 'sha256:bbb' },
      { ...input, baseCommit: 'abd' },
      { ...input, artifact: { ...artifact, testScript: 'pytest tests -x' } },
      { ...input, artifact: { ...artifact, testParser: 'print(1)' } },
      { ...input, artifact: { ...artifact, testFiles: ['tests/test_b.py'] } },
      { ...input, timeoutSec: 91 },
    ]) expect(originalKey(other)).not.toBe(key);
  });

  it('gives back a kept run marked as reused, its log copied beside the bug\'s others', () => {
    const made = mkdtempSync(join(tmpdir(), 'bugbench-made-'));
    const cache = new OriginalRunCache(join(mkdtempSync(join(tmpdir(), 'bugbench-cache-')), 'original-runs'));
    const key = originalKey(input);
    expect(cache.read(key, made)).toBeUndefined();
    cache.write(key, run(made));
    const logDir = mkdtempSync(join(tmpdir(), 'bugbench-next-'));
    const kept = cache.read(key, logDir)!;
    expect(kept).toMatchObject({ label: 'original', reused: true, logPath: join(logDir, 'original.log'), results: { 'tests/test_a.py::test_x': 'passed' } });
    expect(readFileSync(kept.logPath, 'utf8')).toBe('PASSED tests/test_a.py::test_x\n');
  });

  it('keeps no run without a trustworthy map', () => {
    const made = mkdtempSync(join(tmpdir(), 'bugbench-made-'));
    const cache = new OriginalRunCache(join(made, 'cache'));
    cache.write('k', run(made, { timedOut: true }));
    expect(cache.read('k', made)).toBeUndefined();
  });

  it('lets a second check of the process wait for the run another is making, and read it once kept', async () => {
    const made = mkdtempSync(join(tmpdir(), 'bugbench-made-'));
    const cache = new OriginalRunCache(join(made, 'cache'));
    const key = originalKey(input);
    let finish!: (record: RunRecord) => void;
    const making = cache.keep(key, 1, new Promise<RunRecord>((resolve) => (finish = resolve)));
    let waited = false;
    const logDir = mkdtempSync(join(tmpdir(), 'bugbench-next-'));
    const reading = cache.readOrAwait(key, logDir, 1, { waiting: () => (waited = true) });
    expect(waited).toBe(true);
    finish(run(made));
    await making;
    expect(await reading).toMatchObject({ label: 'original', reused: true, logPath: join(logDir, 'original.log') });
    // Once kept, the next one reads it without waiting; the second observation is a run of its own.
    let waitedAgain = false;
    expect(await cache.readOrAwait(key, logDir, 1, { waiting: () => (waitedAgain = true) })).toMatchObject({ reused: true });
    expect(waitedAgain).toBe(false);
    expect(await cache.readOrAwait(key, logDir, 2, { waiting: () => undefined })).toBeUndefined();
  });

  it('leaves the waiting check to make its own when the run it waited for kept nothing, failed, or its own work was cancelled', async () => {
    const made = mkdtempSync(join(tmpdir(), 'bugbench-made-'));
    const cache = new OriginalRunCache(join(made, 'cache'));
    const untrusted = cache.keep('a', 1, Promise.resolve(run(made, { timedOut: true })));
    expect(await cache.readOrAwait('a', made, 1, { waiting: () => undefined })).toBeUndefined();
    await untrusted;
    const failed = cache.keep('b', 1, Promise.reject(new Error('the engine went away')));
    failed.catch(() => undefined);
    expect(await cache.readOrAwait('b', made, 1, { waiting: () => undefined })).toBeUndefined();
    await expect(failed).rejects.toThrow('the engine went away');
    cache.keep('c', 1, new Promise<RunRecord>(() => undefined));
    const cancel = new AbortController();
    const reading = cache.readOrAwait('c', made, 1, { signal: cancel.signal, waiting: () => undefined });
    cancel.abort();
    expect(await reading).toBeUndefined();
  });
});
