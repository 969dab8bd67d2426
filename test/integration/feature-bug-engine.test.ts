/**
 * FeatAdd's search for the bug a feature made runs on the rollout's engine:
 * both its test runs and the container that writes the weakening, whatever
 * the default engine is. Shown with a default engine that does not answer and
 * the real one handed in, as a rollout placed on a second engine hands in its
 * own.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/bugs/artifact.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { findFeatureBug } from '../../src/pipeline/feature-bug.js';
import { engineAt } from '../../src/sandbox/engine-table.js';
import { INJECTION_TEST_PARAMS } from '../helpers/check-params.js';

const FIXTURE = join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts', 'valid-two-files');
const saved = process.env.DOCKER_HOST;
const staging = mkdtempSync(join(tmpdir(), 'bugbench-feature-engine-'));

afterAll(() => {
  if (saved === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = saved;
  rmSync(staging, { recursive: true, force: true });
});

describe('FeatAdd on a rollout placed on an engine that is not the default', () => {
  it("runs the feature's tests and writes the weakening there", async () => {
    const real = engineAt(saved?.split(',')[0] ?? 'unix:///var/run/docker.sock');
    // The staged feature: the fixture bug with an empty weakening, which FeatAdd writes itself.
    cpSync(FIXTURE, staging, { recursive: true });
    writeFileSync(join(staging, 'test_weaken.diff'), '');
    const meta = loadArtifact(FIXTURE).meta!;
    process.env.DOCKER_HOST = `unix://${join(staging, 'no-engine.sock')}`;
    const found = await findFeatureBug(staging, { image: meta.image.tag, baseCommit: meta.baseCommit!, params: INJECTION_TEST_PARAMS, runId: 'feature-engine-test', engine: real });
    expect(found).toMatchObject({ kind: 'broke', weakenedFiles: 2 });
    expect(readFileSync(join(staging, 'test_weaken.diff'), 'utf8')).toMatch(/^diff --git a\/tests\//);
  }, 180_000);
});
