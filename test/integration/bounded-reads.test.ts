/**
 * Reads out of a container stay bounded however big or odd the thing asked
 * for: a 1 GB file, a folder 200 levels deep holding it, a link out of the
 * repository, a device, the root folder. The reads run in a process of their
 * own (test/helpers/bounded-reads-child.mjs, on the built dist/) so its peak
 * memory measures them alone.
 */
import { execa } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';

interface ChildReport {
  before: { peak: number; rss: number };
  after: { peak: number; rss: number; sampledRss: number };
  results: Record<string, { output?: string; isError?: boolean; refused?: string }>;
}

const MB = 1024 * 1024;

describe('reads from a container', () => {
  it('refuse a 1 GB file, a deep folder, a link out of the tree and a device with clear errors, in flat memory', async () => {
    const child = await execa(
      'node',
      [join(PACKAGE_ROOT, 'test', 'helpers', 'bounded-reads-child.mjs'), `test-bounded-${Date.now()}`, mkdtempSync(join(tmpdir(), 'bugbench-staging-'))],
      { reject: false, timeout: 280_000 },
    );
    expect(child.exitCode, child.stderr).toBe(0);
    const report = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as ChildReport;
    const r = report.results;
    const big = '/tmp/big is 953.7 MiB (1000000000 bytes), over the 10 MiB limit of this read';
    expect(r.viewBig).toEqual({ isError: true, output: `${big}; the editor views files up to 10 MiB: read or change parts of it with bash (head, sed -n, grep) instead` });
    expect(r.viewBigRange).toEqual(r.viewBig);
    expect(r.replaceBig).toEqual({ isError: true, output: `${big}; the editor edits files up to 10 MiB: read or change parts of it with bash (head, sed -n, grep) instead` });
    expect(r.submitBig).toEqual({ isError: true, output: `Submission refused: cannot read test_files at /tmp/big: ${big}` });
    // A folder is listed by view (two levels, capped), and refused by everything that needs a file.
    expect(r.viewDeep).toEqual({ isError: false, output: './d\n./d/d\n' });
    expect(r.insertDeep).toEqual({ isError: true, output: '/tmp/deep is a directory, not a regular file' });
    expect(r.submitDeep).toEqual({ isError: true, output: 'Submission refused: cannot read test_files at /tmp/deep: /tmp/deep is a directory, not a regular file' });
    expect(r.submitRoot).toEqual({ isError: true, output: 'Submission refused: cannot read test_files at /: / is a directory, not a regular file' });
    expect(r.viewLink).toEqual({ isError: true, output: '/repo/big_link.py is a link to /tmp/big, outside /repo; copy the file there instead of linking to it' });
    expect(r.submitDevice?.output).toBe(
      'Submission refused: cannot read test_files at /dev/zero: /dev/zero is in /dev, where the kernel makes files up; copy what you need to a regular file first',
    );
    // The byte cap on the stream holds by itself too: the archive of the file, or of /, is cut at its first header.
    expect(r.archiveBig).toEqual({ refused: `is 1000000000 bytes, over the ${10 * MB}-byte limit of this read` });
    expect(r.archiveRoot).toEqual({ refused: 'is a directory (/), not the regular file asked for' });
    const growth = report.after.peak - report.before.peak;
    expect(growth, `peak memory grew by ${(growth / MB).toFixed(1)} MiB`).toBeLessThan(100 * MB);
  }, 300_000);
});
