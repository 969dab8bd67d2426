/**
 * `bugbench eval --patch FILE` with a file that is no diff: refused before
 * anything runs, with a typed error naming the file and what is wrong.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPatchFile } from '../../../src/bugs/patch-file.js';
import { evalCommand } from '../../../src/commands/eval.js';
import { BugbenchError, PatchFileError } from '../../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'bugbench-patch-file-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const GOOD = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n';

describe('a candidate patch file', () => {
  it('is read when it is a git diff', () => {
    expect(readPatchFile(file('fix.diff', GOOD))).toBe(GOOD);
  });

  it('that is JSON lines is refused with its name and why, as a typed error', () => {
    const path = file('bugs.jsonl', '{"instance_id": "x"}\n{"instance_id": "y"}\n');
    expect(() => readPatchFile(path)).toThrow(PatchFileError);
    expect(() => readPatchFile(path)).toThrow(`${path} is not a patch: it does not read as a git diff (no file header ("diff --git" or "---"/"+++") found); give the candidate fix as a unified git diff`);
  });

  it('that is cut short, a folder or missing is refused the same way', () => {
    expect(() => readPatchFile(file('cut.diff', GOOD.split('\n').slice(0, 6).join('\n')))).toThrow(/cut\.diff is not a patch: it does not read as a git diff \(the last hunk is cut short\)/);
    expect(() => readPatchFile(dir)).toThrow(`${dir} is not a patch: it is a folder, not a file`);
    expect(() => readPatchFile(join(dir, 'nope.diff'))).toThrow(/nope\.diff is not a patch: there is no such file/);
  });

  it('is refused by `bugbench eval` before the bug is looked up or any container starts', async () => {
    const path = file('not-a-diff.txt', 'just words\n');
    const refused = evalCommand(['no-such-bug-anywhere', '--patch', path]);
    await expect(refused).rejects.toThrow(PatchFileError);
    await expect(refused).rejects.toMatchObject({ code: 'BB_PATCH_FILE', exitCode: 2 });
    await expect(refused).rejects.toBeInstanceOf(BugbenchError);
  });
});
