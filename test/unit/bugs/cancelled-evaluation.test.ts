/**
 * Cancelling a solve removes its evaluation containers, so a patch being
 * judged then sees its exec killed (exit 137, no summary). Once the work's
 * signal has aborted that is a cancellation, never a SandboxError that
 * records the whole run as failed (the newcomer's `q q` during a solve).
 * A stand-in engine whose container's exec ends killed stands for the
 * removed container.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../../src/bugs/artifact.js';
import { CheckContext } from '../../../src/bugs/check-context.js';
import { evaluateInContext } from '../../../src/bugs/evaluate.js';
import { DEFAULT_CHECK_PARAMS } from '../../../src/bugs/meta.js';
import { runTests } from '../../../src/bugs/test-run.js';
import { CancelledError, SandboxError } from '../../../src/errors.js';
import type { ContainerEngine, ImageInfo } from '../../../src/sandbox/port.js';
import { BUILT_WORLD, type ExecResult, type Sandbox } from '../../../src/sandbox/sandbox.js';
import { artifactPath } from '../../helpers/artifacts.js';

const KILLED: ExecResult = { command: '', exitCode: 137, stdout: '', stderr: '', timedOut: false, cancelled: false, truncated: false, durationMs: 5 };

/** A container whose every exec ends killed, as one removed under it does. */
function killedSandbox(): Sandbox {
  const sandbox: Partial<Sandbox> = {
    id: 'c1',
    image: 'bugbench/repo-x:latest',
    runId: 'solve-x-eval',
    world: BUILT_WORLD,
    root: BUILT_WORLD.root,
    exec: async () => KILLED,
    writeFiles: async () => undefined,
    writeFile: async () => undefined,
    remove: async () => undefined,
  };
  return sandbox as Sandbox;
}

/** An engine that has the image as one bugbench built, and makes killed containers. */
function standInEngine(): ContainerEngine {
  const image: Partial<ImageInfo> = { id: 'sha256:x', labels: { 'bugbench.commit': 'abc' }, workdir: '', user: '', env: [] };
  const engine: Partial<ContainerEngine> = {
    type: 'docker-api',
    host: 'unix:///stand-in.sock',
    inspectImage: async () => image as ImageInfo,
    createSandbox: async () => killedSandbox(),
  };
  return engine as ContainerEngine;
}

const PATCH = 'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';
const SPEC = { failToPass: ['tests/test_a.py::test_one'], passToPass: ['tests/test_a.py::test_two'] };

function context(signal?: AbortSignal): CheckContext {
  return new CheckContext({
    artifact: loadArtifact(artifactPath('valid-two-files')),
    image: 'bugbench/repo-x:latest',
    baseCommit: 'abc',
    params: DEFAULT_CHECK_PARAMS,
    logDir: mkdtempSync(join(tmpdir(), 'bugbench-cancelled-eval-')),
    parallelism: 1,
    engine: standInEngine(),
    signal,
  });
}

describe('an evaluation whose containers the cancellation removed', () => {
  it('ends cancelled, with no verdict, once the signal has aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const ctx = context(controller.signal);
    try {
      const judged = await evaluateInContext(ctx, PATCH, SPEC, 'solve-x-a1');
      expect(judged).toMatchObject({ solved: false, cancelled: true, failing: [], error: 'the evaluation was cancelled' });
    } finally {
      await ctx.close();
    }
  });

  it('is still a SandboxError when nothing was cancelled', async () => {
    const ctx = context(new AbortController().signal);
    try {
      await expect(evaluateInContext(ctx, PATCH, SPEC, 'solve-x-a1')).rejects.toThrow(SandboxError);
    } finally {
      await ctx.close();
    }
  });

  it('makes runTests say the run was cancelled rather than that preparing it failed', async () => {
    const controller = new AbortController();
    controller.abort();
    const options = { label: 'solve-x-a1', timeoutMs: 10_000, logDir: mkdtempSync(join(tmpdir(), 'bugbench-cancelled-run-')) };
    await expect(runTests(killedSandbox(), { ...options, signal: controller.signal })).rejects.toThrow(new CancelledError('the run "solve-x-a1"'));
    await expect(runTests(killedSandbox(), options)).rejects.toThrow(/preparing the run "solve-x-a1" failed \(exit 137\)/);
  });
});
