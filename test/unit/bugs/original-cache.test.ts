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
});
