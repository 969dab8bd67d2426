/**
 * What a candidate patch does to the way the tests run, outside the oracle
 * test files (which the evaluation puts back anyway): files named as test
 * infrastructure (a conftest.py, a jest setup file, a `_test.go` helper) are
 * put back too, so a patch gains nothing from them; a change to the test
 * configuration inside a shared file (pytest's table in pyproject.toml,
 * package.json's test script, a Rust `#[cfg(test)]` module) cannot be put
 * back alone, so the patch is judged unsolved with the reason.
 */
import { DIFFS_IN_CONTAINER } from './container-paths.js';
import { parseDiff, touchedPaths } from './diff.js';
import type { BugArtifact } from './artifact.js';
import { versionsAcrossDiffs } from './file-versions.js';
import { isTestInfrastructure, mayHoldTestConfig, testConfigChange } from './test-infrastructure.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export interface CandidateSetup {
  /** Test infrastructure the patch touches: put back to the starting state. */
  restore: string[];
  /** Why the patch changes the test configuration, or undefined. */
  tampering?: string;
}

/** The paths of a patch that are test infrastructure by name, and those that may hold test configuration (pure). */
export function setupPaths(patch: string, artifact: BugArtifact): { restore: string[]; mixed: string[] } {
  const oracle = new Set(artifact.testFiles);
  const paths = touchedPaths(parseDiff(patch)).filter((p) => !oracle.has(p));
  const restore = paths.filter(isTestInfrastructure);
  return { restore, mixed: paths.filter((p) => !restore.includes(p) && mayHoldTestConfig(p)) };
}

/** Judges a candidate's test setup, reading the shared files it changes in the bug's container. */
export async function candidateSetup(sandbox: Sandbox, artifact: BugArtifact, base: string, patch: string, label: string): Promise<CandidateSetup> {
  const { restore, mixed } = setupPaths(patch, artifact);
  if (mixed.length === 0) return { restore };
  // The patch goes to a file of its own: the shared candidate file belongs to whichever run holds the lane.
  const file = `/tmp/bugbench-setup-${label.replace(/[^a-zA-Z0-9_-]+/g, '_')}.diff`;
  await sandbox.writeFile(file, patch.endsWith('\n') ? patch : `${patch}\n`);
  const under = [
    ...(artifact.bugInject.trim() ? [DIFFS_IN_CONTAINER.bug] : []),
    ...(artifact.testWeaken.trim() ? [DIFFS_IN_CONTAINER.weaken] : []),
    ...(artifact.predPatch?.trim() ? [DIFFS_IN_CONTAINER.pred] : []),
  ];
  const versions = await versionsAcrossDiffs(sandbox, base, { under, diff: file }, mixed);
  // A patch that does not apply is reported by its run.
  if (!versions) return { restore };
  const changes: string[] = [];
  for (const path of mixed) {
    const v = versions.get(path);
    const why = v && (await testConfigChange(path, v.before, v.after));
    if (why) changes.push(`${path} (${why})`);
  }
  return changes.length > 0 ? { restore, tampering: `the patch changes how the tests run: ${changes.join(', ')}; a fix must leave the test configuration alone` } : { restore };
}
