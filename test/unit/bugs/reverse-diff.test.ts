import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { reverseDiff } from '../../../src/bugs/reverse-diff.js';

const ORIGINAL: Record<string, string> = {
  'pkg/core.py': ['def add(a, b):', '    return a + b', '', '', 'def sub(a, b):', '    return a - b', '', '', 'def mul(a, b):', '    return a * b', ''].join('\n'),
  'pkg/gone.py': 'VALUE = 1\n',
  'pkg/moved.py': 'def f():\n    return "stay"\n' + 'x = 1\n'.repeat(10),
  'notes.txt': 'no newline at the end',
};

/** A repository holding ORIGINAL, changed by `change`; the forward diff of the change. */
async function changedRepo(change: (dir: string) => Promise<void>): Promise<{ dir: string; forward: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bugbench-reverse-'));
  const git = (...args: string[]) => execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
  await git('init', '-q');
  for (const [path, text] of Object.entries(ORIGINAL)) {
    await execa('mkdir', ['-p', join(dir, path, '..')]);
    writeFileSync(join(dir, path), text);
  }
  await git('add', '-A');
  await git('commit', '-qm', 'original');
  await change(dir);
  await git('add', '-A');
  const forward = (await git('diff', '--cached', 'HEAD')).stdout + '\n';
  return { dir, forward };
}

async function undoes(dir: string, reverse: string): Promise<string> {
  writeFileSync(join(dir, '.reverse.diff'), reverse);
  await execa('git', ['apply', '--index', '.reverse.diff'], { cwd: dir });
  rmSync(join(dir, '.reverse.diff'));
  return (await execa('git', ['status', '--porcelain'], { cwd: dir })).stdout;
}

describe('reverseDiff', () => {
  it('undoes edits in several hunks, a created file, a deleted file, a rename and a missing final newline', async () => {
    const { dir, forward } = await changedRepo(async (d) => {
      writeFileSync(join(d, 'pkg/core.py'), ORIGINAL['pkg/core.py']!.replace('a + b', 'a - b').replace('a * b', 'a * b * 1\n    # extra'));
      writeFileSync(join(d, 'pkg/new.py'), 'CREATED = True\n');
      rmSync(join(d, 'pkg/gone.py'));
      await execa('git', ['mv', 'pkg/moved.py', 'pkg/renamed.py'], { cwd: d });
      writeFileSync(join(d, 'pkg/renamed.py'), readFileSync(join(d, 'pkg/renamed.py'), 'utf8').replace('stay', 'moved'));
      writeFileSync(join(d, 'notes.txt'), 'now it has one\n');
    });
    expect(forward).toMatch(/rename from pkg\/moved\.py/);
    expect(forward).toMatch(/\\ No newline at end of file/);
    expect(await undoes(dir, reverseDiff(forward))).toBe('');
    for (const [path, text] of Object.entries(ORIGINAL)) expect(readFileSync(join(dir, path), 'utf8')).toBe(text);
  });

  it('puts removals before additions in each run of changed lines, as git writes them', () => {
    const forward = 'diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-old\n+new\n c\n';
    expect(reverseDiff(forward)).toBe('diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-new\n+old\n c\n');
  });

  it('reverses the reverse back to the diff', () => {
    const forward = 'diff --git a/x.py b/x.py\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/x.py\n@@ -0,0 +1,2 @@\n+a\n+b\n';
    expect(reverseDiff(forward)).toMatch(/deleted file mode 100644\nindex 1111111\.\.0000000\n--- a\/x\.py\n\+\+\+ \/dev\/null\n@@ -1,2 \+0,0 @@\n-a\n-b/);
    expect(reverseDiff(reverseDiff(forward))).toBe(forward);
  });

  it('is empty for an empty diff', () => {
    expect(reverseDiff('')).toBe('');
  });
});
