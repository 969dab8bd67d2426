/**
 * What a solver starts from (SPEC §5): the original code with the bug, the
 * weakening and a higher-order bug's parent prediction applied, then the
 * repository's history replaced by one commit, so nothing in the container
 * holds the answer — not git's objects, not the artifact's diffs.
 */
import type { BugArtifact } from './artifact.js';
import { buildState } from './repo-state.js';
import { installArtifact } from './test-run.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export const STARTING_COMMIT_MESSAGE = 'starting state';

/**
 * Bash run at the repository's root once the buggy state stands: the history
 * (and bugbench's files) gone, one fresh commit. Exports build the same state
 * with it. An image's own user may not remove /bugbench itself, only empty it.
 */
export const SCRUB_HISTORY = [
  'rm -rf .git; rm -rf /bugbench 2>/dev/null || find /bugbench -mindepth 1 -delete',
  'git init -q -b main',
  'git add -A',
  `git -c user.name=bugbench -c user.email=bugbench@localhost -c commit.gpgsign=false commit -qm '${STARTING_COMMIT_MESSAGE}'`,
];

export async function buildStartingState(sandbox: Sandbox, artifact: BugArtifact, baseCommit: string): Promise<void> {
  await installArtifact(sandbox, artifact);
  // One exec: the buggy state, then the history (and the artifact's diffs) gone for a fresh commit.
  await buildState(sandbox, artifact, baseCommit, { bug: true, weaken: true }, SCRUB_HISTORY);
}
