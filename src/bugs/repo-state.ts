/**
 * Building the states a bug is judged in, inside one container, by git alone:
 * original → bug_inject.diff → test_weaken.diff → pred_patch.diff → candidate
 * patch, and optionally the oracle test files restored to the original.
 */
import { shellQuote, type Sandbox } from '../sandbox/sandbox.js';
import type { BugArtifact } from './artifact.js';
import type { FileChange } from './diff.js';

export interface StateLayers {
  bug?: boolean;
  weaken?: boolean;
  /** The parent's failed solver patch, for higher-order bugs (applied whenever the artifact has one and bug is on). */
  pred?: boolean;
  candidate?: string;
  /** Put every file of test_files.txt back to the original version last. */
  restoreTests?: boolean;
  /** Revert these changes of the bug (each file back to the original) after the layers are on. */
  revert?: FileChange[];
}

export async function buildState(sandbox: Sandbox, artifact: BugArtifact, base: string, layers: StateLayers): Promise<void> {
  await sandbox.reset(base);
  if (layers.bug) await sandbox.applyDiff(artifact.bugInject);
  if (layers.weaken) await sandbox.applyDiff(artifact.testWeaken);
  if (layers.bug && layers.pred !== false && artifact.predPatch) await sandbox.applyDiff(artifact.predPatch);
  if (layers.candidate) await sandbox.applyDiff(layers.candidate);
  if (layers.restoreTests) await restorePaths(sandbox, base, artifact.testFiles);
  if (layers.revert) {
    const paths = layers.revert.flatMap((c) => [c.oldPath, c.newPath]).filter((p): p is string => p !== undefined);
    await restorePaths(sandbox, base, paths);
  }
}

/** Each path back to its version in `base`; a path that did not exist there is removed. */
export async function restorePaths(sandbox: Sandbox, base: string, paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  const quotedBase = shellQuote(base);
  const script = paths
    .map((p) => {
      const q = shellQuote(p);
      return `if git cat-file -e ${quotedBase}:${q} 2>/dev/null; then git checkout -q ${quotedBase} -- ${q}; else rm -rf -- ${q}; fi`;
    })
    .join(' && ');
  await sandbox.run(script, { timeoutMs: 60_000 });
}
