/**
 * verify-export in a workspace that is not the export's: an instance whose
 * image is not adopted here (or not on this engine at all) gets a verdict
 * saying it could not be verified, why and what to do, and the others go on;
 * the exit status says not all were verified. A stand-in engine answers for
 * the images: one someone else adopted, one missing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyExitCode, verifySummary } from '../../../src/commands/verify-export.js';
import { verifyExport } from '../../../src/datasets/verify-export.js';
import type { ContainerEngine, ImageInfo } from '../../../src/sandbox/port.js';
import { BASE_IMAGE } from '../../../src/sandbox/image-names.js';
import { LABEL_BASE } from '../../../src/sandbox/labels.js';
import { artifactPath } from '../../helpers/artifacts.js';

const ADOPTED_ELSEWHERE = 'newcomer/slotsmith-own:2';
const MISSING = 'newcomer/gone:1';
/** Made FROM bugbench's base: it carries the base's label, but it is not the base (another id). */
const FROM_BASE = 'newcomer/from-base:1';

/** An engine that has ADOPTED_ELSEWHERE as an image bugbench did not build (no adoption record here), and no MISSING. */
function standInEngine(): ContainerEngine {
  const foreign: Partial<ImageInfo> = { id: 'sha256:not-adopted-in-this-workspace', labels: {}, workdir: '/testbed', user: '', env: [] };
  const engine: Partial<ContainerEngine> = {
    type: 'docker-api',
    host: 'unix:///stand-in.sock',
    inspectImage: async (ref: string) =>
      ref === ADOPTED_ELSEWHERE
        ? (foreign as ImageInfo)
        : ref === FROM_BASE
          ? ({ ...foreign, id: 'sha256:made-from-the-base', labels: { [LABEL_BASE]: 'python' } } as ImageInfo)
          : ref === BASE_IMAGE
            ? ({ ...foreign, id: 'sha256:the-base', labels: { [LABEL_BASE]: 'python' } } as ImageInfo)
            : undefined,
    createSandbox: async () => {
      throw new Error('no container is made for an image that cannot be run here');
    },
  };
  return engine as ContainerEngine;
}

/** An instance as `export --format swebench` writes it, of the valid-two-files bug, on `image`. */
function instanceLine(id: string, image: string): string {
  const file = (name: string) => readFileSync(join(artifactPath('valid-two-files'), name), 'utf8');
  return JSON.stringify({
    instance_id: id,
    image_name: image,
    base_commit: '87f9c6f24e98c627173a51741674a9f14bbf2be4',
    patch: '',
    FAIL_TO_PASS: ['tests/test_lexer.py::test_words'],
    PASS_TO_PASS: [],
    bugbench: { bug_patch: file('bug_inject.diff'), weaken_patch: file('test_weaken.diff'), pred_patch: null, test_files: file('test_files.txt').trim().split('\n'), test_script: file('test_script.sh'), test_parser: file('test_parser.py') },
  });
}

describe('verify-export of instances this workspace cannot run', () => {
  it('gives each a verdict that says why and what to do, goes on to the next, and does not count them as holding', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bugbench-verify-unverified-'));
    const path = join(dir, 'own.jsonl');
    writeFileSync(path, `${instanceLine('slotsmith-own-direct-b6f24150', ADOPTED_ELSEWHERE)}\n${instanceLine('gone-removal-1', MISSING)}\n${instanceLine('from-base-removal-1', FROM_BASE)}\n`);
    const finished: string[] = [];
    const result = await verifyExport({ path, runs: 1, logDir: join(dir, 'logs') }, { engine: standInEngine() }, (event) => {
      if (event.type === 'instance-finished') finished.push(event.verdict.id);
    });
    expect(finished).toEqual(['slotsmith-own-direct-b6f24150', 'gone-removal-1', 'from-base-removal-1']);
    expect(result).toMatchObject({ holding: 0, differing: 0, unverified: 3, logs: join(dir, 'logs') });
    const [adopted, missing, fromBase] = result.instances;
    // Not run as one of bugbench's own images (at /repo, where it has no repository): it is an image to adopt.
    expect(fromBase!.unverified).toMatch(/^its image newcomer\/from-base:1 is not one bugbench built, and this workspace has not adopted it/);
    expect(adopted).toMatchObject({ id: 'slotsmith-own-direct-b6f24150', holds: false, differences: [], problems: [] });
    expect(adopted!.unverified).toMatch(/^its image newcomer\/slotsmith-own:2 is not one bugbench built, and this workspace has not adopted it .*`bugbench images add newcomer\/slotsmith-own:2`/);
    expect(missing!.unverified).toBe('its image newcomer/gone:1 is not on this engine; pull it (`docker pull newcomer/gone:1`) or build it, then verify again');
    expect(verifyExitCode(result)).toBe(1);
    expect(verifySummary(result)).toBe('0 of 3 instance(s) hold; 3 could not be verified here (see above)');
  });

  it('exits 0 only when every instance was verified and holds', () => {
    const base = { path: 'x', runs: 1, instances: [{ id: 'a', image: 'i', holds: true, differences: [], problems: [], logs: 'l' }], logs: 'l' };
    expect(verifyExitCode({ ...base, holding: 1, differing: 0, unverified: 0 })).toBe(0);
    expect(verifyExitCode({ ...base, instances: [...base.instances, { ...base.instances[0]!, holds: false, unverified: 'why' }], holding: 1, differing: 0, unverified: 1 })).toBe(1);
  });
});
