/**
 * FeatAdd's weakening in Go and TypeScript: a staged feature (the bench's
 * two-file bug of the ratekit and vercraft samples, with no weakening) is run
 * on the original and with the feature, and bugbench deletes the broken tests
 * in the test files' syntax trees, whatever the agent's parser calls them.
 * The weakening is the fixture's own (the offline injector's, made with the
 * same deletion), and the Go artifact it completes passes the nine checks
 * with the fixture's FAIL_TO_PASS. A test other test code calls is not
 * deleted (test/unit/agent/test-deletion.test.ts).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/bugs/artifact.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { findFeatureBug } from '../../src/pipeline/feature-bug.js';
import { INJECTION_TEST_PARAMS } from '../helpers/check-params.js';
import { checkDir, summary } from '../helpers/language-artifacts.js';

const root = mkdtempSync(join(tmpdir(), 'bugbench-feature-weakening-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The fixture staged as FeatAdd stages a feature: everything but the weakening, which bugbench writes. */
function stage(fixture: string, name: string, change: (dir: string) => void = () => undefined): string {
  const dir = join(root, name);
  cpSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts', fixture), dir, { recursive: true });
  writeFileSync(join(dir, 'test_weaken.diff'), '');
  change(dir);
  return dir;
}

async function find(dir: string) {
  const meta = loadArtifact(dir).meta!;
  return findFeatureBug(dir, { image: meta.image.tag, baseCommit: meta.baseCommit!, params: INJECTION_TEST_PARAMS, runId: `feature-weakening-${Date.now()}` });
}

/** The test functions a diff deletes, by the line that declares them. */
const deleted = (diff: string, declaration: RegExp) => diff.split('\n').flatMap((l) => (l.startsWith('-') ? [...l.matchAll(declaration)].map((m) => m[1]) : []));

describe("FeatAdd's weakening in the test files' syntax trees", () => {
  it('deletes the Go tests a feature broke, named as the artifact parser names them, and the artifact passes the nine checks', async () => {
    const dir = stage('go-valid-two-files', 'go');
    expect(await find(dir)).toMatchObject({ kind: 'broke', weakenedFiles: 2 });
    const diff = readFileSync(join(dir, 'test_weaken.diff'), 'utf8');
    expect(deleted(diff, /^-func (Test\w+)\(/g).sort()).toEqual(['TestDelayCappedForLargeAttempts', 'TestKeysMostRecentFirst']);
    expect(diff).toBe(readFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts', 'go-valid-two-files', 'test_weaken.diff'), 'utf8'));
    const report = await checkDir(dir, '--buggy-runs', '2');
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['example.com/ratekit/backoff/TestDelayCappedForLargeAttempts', 'example.com/ratekit/lru/TestKeysMostRecentFirst']);
  }, 300_000);

  it("finds them by a parser's own names too: the package's last element and the test, joined by ::", async () => {
    const dir = stage('go-valid-two-files', 'go-short-names', (d) => {
      const parser = readFileSync(join(d, 'test_parser.py'), 'utf8');
      const renamed = parser.replace('results[f"{package}/{test}"]', `results[f"{package.rsplit('/', 1)[-1]}::{test}"]`);
      expect(renamed).not.toBe(parser);
      writeFileSync(join(d, 'test_parser.py'), renamed);
    });
    const found = await find(dir);
    expect(found).toMatchObject({ kind: 'broke', broken: ['backoff::TestDelayCappedForLargeAttempts', 'lru::TestKeysMostRecentFirst'], weakenedFiles: 2 });
    expect(deleted(readFileSync(join(dir, 'test_weaken.diff'), 'utf8'), /^-func (Test\w+)\(/g).sort()).toEqual(['TestDelayCappedForLargeAttempts', 'TestKeysMostRecentFirst']);
  }, 300_000);

  it('deletes the TypeScript tests a feature broke, by their describe and it names, as the offline injector deletes them', async () => {
    const dir = stage('ts-valid-two-files', 'ts');
    expect(await find(dir)).toMatchObject({ kind: 'broke', weakenedFiles: 2 });
    const diff = readFileSync(join(dir, 'test_weaken.diff'), 'utf8');
    const gone = ['bumps the last number of a pre-release', 'compares numeric pre-release identifiers as numbers', 'counts on within the same named pre-release'];
    expect(deleted(diff, /^-\s*it\('([^']+)'/g).sort()).toEqual(gone);
    // The offline injector's own weakening of the same bug, which the language suite judges valid.
    expect(diff).toBe(readFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts', 'ts-valid-two-files', 'test_weaken.diff'), 'utf8'));
  }, 300_000);
});
