import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifact, MAX_FILE_BYTES, parseTestFiles } from '../../../src/bugs/artifact.js';
import { ArtifactError } from '../../../src/errors.js';
import { artifactPath } from '../../helpers/artifacts.js';

function artifactWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bugbench-artifact-'));
  const all = {
    'test_files.txt': 'tests/test_a.py\n',
    'test_script.sh': 'pytest -rA tests/test_a.py\n',
    'test_parser.py': 'print("{}")\n',
    'bug_inject.diff': '--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n',
    'test_weaken.diff': '',
    ...files,
  };
  for (const [name, content] of Object.entries(all)) writeFileSync(join(dir, name), content);
  return dir;
}

describe('loadArtifact', () => {
  it('loads the valid fixture with its meta and the files its diffs touch', () => {
    const artifact = loadArtifact(artifactPath('valid-two-files'));
    expect(artifact.testFiles).toEqual(['tests/test_lexer.py', 'tests/test_serializer.py', 'tests/test_parser.py']);
    expect(artifact.bugChanges.map((c) => c.newPath)).toEqual(['knotcfg/lexer.py', 'knotcfg/serializer.py']);
    expect(artifact.meta?.image.tag).toBe('bugbench/repo-knotcfg:latest');
    expect(artifact.predPatch).toBeUndefined();
  });

  it.each([
    [{ 'bug_inject.diff': 'hello\n' }, 'bug_inject.diff: does not parse as a git diff'],
    [{ 'test_weaken.diff': '--- a//etc/x\n+++ b//etc/x\n@@ -1 +1 @@\n-a\n+b\n' }, 'test_weaken.diff: refused: "/etc/x" is absolute'],
    [{ 'test_files.txt': '../outside/test.py\n' }, 'test_files.txt: refused: "../outside/test.py" leaves the repository'],
    [{ 'test_files.txt': '\n# nothing\n' }, 'test_files.txt: lists no test file'],
    [{ 'meta.json': '{"strategy": "removal"}' }, 'meta.json: meta.json has no image.tag'],
    [{ 'test_script.sh': 'x'.repeat(MAX_FILE_BYTES + 1) }, `test_script.sh: is ${MAX_FILE_BYTES + 1} bytes; the limit is ${MAX_FILE_BYTES}`],
  ])('refuses a bad artifact (%#)', (files, message) => {
    const dir = artifactWith(files);
    expect(() => loadArtifact(dir)).toThrow(ArtifactError);
    expect(() => loadArtifact(dir)).toThrow(message);
  });

  it('reads test_files.txt without duplicates, comments or ./ prefixes', () => {
    expect(parseTestFiles('./tests/a.py\ntests/a.py\n# c\n\ntests/b.py\n')).toEqual(['tests/a.py', 'tests/b.py']);
  });
});
