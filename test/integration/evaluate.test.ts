import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/bugs/artifact.js';
import { evaluatePatch } from '../../src/bugs/evaluate.js';
import { DEFAULT_CHECK_PARAMS } from '../../src/bugs/meta.js';
import { openSandbox } from '../../src/sandbox/engine-table.js';
import { artifactPath, VALID_FAIL_TO_PASS } from '../helpers/artifacts.js';
import { bugbench } from '../helpers/cli.js';

const artifact = loadArtifact(artifactPath('valid-two-files'));
const setup = () => ({
  artifact,
  image: artifact.meta!.image.tag,
  baseCommit: artifact.meta!.baseCommit!,
  params: DEFAULT_CHECK_PARAMS,
  logDir: mkdtempSync(join(tmpdir(), 'bugbench-eval-')),
  parallelism: 1,
});

/** The reverse of bug_inject.diff, made with git in a container. */
async function reverseOfBug(): Promise<string> {
  const sandbox = await openSandbox({ image: artifact.meta!.image.tag, runId: 'test-eval-reverse' });
  try {
    await sandbox.applyDiff(artifact.bugInject);
    return await sandbox.diff([], { reverse: true });
  } finally {
    await sandbox.remove();
  }
}

describe('patch evaluation', () => {
  it('solves the bug with the reverse of bug_inject.diff', async () => {
    const result = await evaluatePatch(setup(), await reverseOfBug());
    expect(result.failToPass).toEqual(VALID_FAIL_TO_PASS);
    expect(result.failing).toEqual([]);
    expect(result.solved).toBe(true);
  });

  it('does not solve it with an empty patch, and lists the failing tests', async () => {
    const result = await evaluatePatch(setup(), '');
    expect(result.solved).toBe(false);
    expect(result.failing).toEqual(VALID_FAIL_TO_PASS);
  });

  it('gains nothing from a patch that edits the test files instead of the code', async () => {
    // "Fix" by deleting the failing lexer cases from the tests: the oracle files are restored before the run.
    const sandbox = await openSandbox({ image: artifact.meta!.image.tag, runId: 'test-eval-cheat' });
    let cheat: string;
    try {
      await sandbox.run("sed -i '/1e3\\|2.5E-2\\|-1e+20/d' tests/test_lexer.py && sed -i 's/== \"max-size\"/!= \"\"/' tests/test_serializer.py");
      cheat = await sandbox.diff();
    } finally {
      await sandbox.remove();
    }
    expect(cheat).toContain('tests/test_lexer.py');
    const result = await evaluatePatch(setup(), cheat);
    expect(result.solved).toBe(false);
    expect(result.failing).toEqual(VALID_FAIL_TO_PASS);
  });

  it('reports a patch that does not apply as not solved', async () => {
    const stale = 'diff --git a/knotcfg/lexer.py b/knotcfg/lexer.py\n--- a/knotcfg/lexer.py\n+++ b/knotcfg/lexer.py\n@@ -1,3 +1,3 @@\n-no such line\n+other\n context\n context\n';
    const result = await evaluatePatch(setup(), stale);
    expect(result.solved).toBe(false);
    expect(result.error).toMatch(/does not apply.*knotcfg\/lexer\.py/);
  });

  it('prints the documented JSON from `bugbench eval`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bugbench-patch-'));
    const patchFile = join(dir, 'fix.diff');
    writeFileSync(patchFile, await reverseOfBug());
    const result = await bugbench(['eval', artifactPath('valid-two-files'), '--patch', patchFile, '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(Object.keys(json).sort()).toEqual(['failing', 'results', 'solved']);
    expect(json.solved).toBe(true);
    expect(json.results[VALID_FAIL_TO_PASS[0]!]).toBe('passed');
    expect(readFileSync(patchFile, 'utf8')).toContain('knotcfg/lexer.py');
  });
});
