/**
 * Building the states a bug is judged in, inside one container, by git alone:
 * original → bug_inject.diff → test_weaken.diff → pred_patch.diff → candidate
 * patch, then optionally the oracle test files restored to the original and
 * single files reverted. One exec per state: resets are the hot path of the checks.
 */
import { PatchRejectedError, SandboxError } from '../errors.js';
import { rejectedFiles, shellQuote, type Sandbox } from '../sandbox/sandbox.js';
import type { BugArtifact } from './artifact.js';
import { keepsBytecode, STAMP_WRITTEN_FILES } from './bytecode.js';
import { touchedPaths, type FileChange } from './diff.js';
import { DIFFS_IN_CONTAINER, TEST_FILES_IN_CONTAINER } from './container-paths.js';

export interface StateLayers {
  bug?: boolean;
  weaken?: boolean;
  /** The parent's failed solver patch of a higher-order bug; on by default whenever the bug is. */
  pred?: boolean;
  candidate?: string;
  /** Put every file of test_files.txt back to the original version. */
  restoreTests?: boolean;
  /** More paths put back to the original after the candidate (test infrastructure a candidate touched). */
  restorePaths?: string[];
  /** Revert these changes of the bug (each file back to the original) after the layers are on. */
  revert?: FileChange[];
  /**
   * Use as candidate the gold patch, made in the same script: the diff that
   * takes these code paths from the buggy state back to the original.
   */
  goldOf?: string[];
}

/** The code files the gold patch restores: those the bug (and a parent prediction) changed. */
export function goldPaths(artifact: BugArtifact): string[] {
  const testFiles = new Set(artifact.testFiles);
  return touchedPaths([...artifact.bugChanges, ...artifact.predChanges]).filter((p) => !testFiles.has(p));
}

export const STATE_APPLY_FAILED = 86;
const STATE_MARKER = 'bugbench-state-failed: ';

/**
 * Bash that puts every path (a file or a folder; listed one a line in a file
 * of the container, or given) back to its version in the original, removing what did not exist
 * there. Every state starts with `git reset --hard` to the original and the
 * layers are applied to the work tree only, so the index still holds the
 * original: the tracked files under the paths are checked out of it, and what
 * the layers created there is cleaned away. Three git processes however many
 * paths (this runs in most test runs of the checks); paths are taken
 * literally, and one that exists nowhere is no error.
 */
function restorePaths(from: { file: string } | { paths: string[] }): string {
  const read = 'paths=(); while IFS= read -r p || [ -n "$p" ]; do [ -n "$p" ] && paths+=("$p"); done';
  return [
    'file' in from ? `${read} < ${from.file}` : `${read} <<'BUGBENCH_PATHS'\n${from.paths.join('\n')}\nBUGBENCH_PATHS`,
    'if [ ${#paths[@]} -gt 0 ]; then',
    '  GIT_LITERAL_PATHSPECS=1 git ls-files -z -- "${paths[@]}" | GIT_LITERAL_PATHSPECS=1 git checkout-index -f -q -u -z --stdin',
    '  GIT_LITERAL_PATHSPECS=1 git clean -q -fdx -- "${paths[@]}"',
    'fi',
  ].join('\n');
}

export interface StateScript {
  /** Bash lines (run with `set -e`) that build the state from any state of /repo. */
  lines: string[];
  /** A candidate patch to write to DIFFS_IN_CONTAINER.candidate first. */
  candidate?: string;
}

/**
 * Bash that takes /repo back to the original from any state: reset, and the
 * files no commit holds cleaned away, those the repository ignores too where
 * the artifact's own diffs write (a bug may add a file under an ignored
 * `build/`: left there, the next state's patch would not apply). Elsewhere
 * ignored files stay: an image's virtualenv, node_modules, built extensions.
 */
function resetLines(artifact: BugArtifact, base: string): string[] {
  const own = touchedPaths([...artifact.bugChanges, ...artifact.weakenChanges, ...artifact.predChanges]);
  return [
    `git reset -q --hard ${shellQuote(base)}`,
    'git clean -q -fd',
    ...(own.length > 0 ? [`GIT_LITERAL_PATHSPECS=1 git clean -q -fdx -- ${own.map(shellQuote).join(' ')}`] : []),
  ];
}

/** The bash that builds a state; a patch that does not apply exits with STATE_APPLY_FAILED and says which. */
export function stateScript(artifact: BugArtifact, base: string, layers: StateLayers): StateScript {
  const reset = resetLines(artifact, base);
  const lines = [`apply() { if ! out=$(git apply --whitespace=nowarn "$2" 2>&1); then printf '${STATE_MARKER}%s\\n%s\\n' "$1" "$out" >&2; exit ${STATE_APPLY_FAILED}; fi; }`, ...reset];
  const nonEmpty = (text: string | undefined) => text !== undefined && text.trim() !== '';
  const buggy = (weaken: boolean) => {
    if (layers.bug && nonEmpty(artifact.bugInject)) lines.push(`apply bug_inject.diff ${DIFFS_IN_CONTAINER.bug}`);
    if (weaken && nonEmpty(artifact.testWeaken)) lines.push(`apply test_weaken.diff ${DIFFS_IN_CONTAINER.weaken}`);
    if (layers.bug && layers.pred !== false && nonEmpty(artifact.predPatch)) lines.push(`apply pred_patch.diff ${DIFFS_IN_CONTAINER.pred}`);
  };
  if (layers.goldOf && layers.goldOf.length > 0) {
    const paths = layers.goldOf.map(shellQuote).join(' ');
    buggy(true);
    lines.push(
      `git add -A -f -- ${paths} && git diff --cached --binary -R HEAD -- ${paths} > ${DIFFS_IN_CONTAINER.candidate} && git reset -q`,
      ...reset,
    );
  }
  buggy(layers.weaken === true);
  let candidate: string | undefined;
  if (nonEmpty(layers.candidate)) {
    candidate = layers.candidate!.endsWith('\n') ? layers.candidate! : `${layers.candidate}\n`;
    lines.push(`apply 'the candidate patch' ${DIFFS_IN_CONTAINER.candidate}`);
  } else if (layers.goldOf && layers.goldOf.length > 0) {
    lines.push(`apply 'the gold patch' ${DIFFS_IN_CONTAINER.candidate}`);
  }
  if (layers.restoreTests) lines.push(restorePaths({ file: TEST_FILES_IN_CONTAINER }));
  if (layers.restorePaths && layers.restorePaths.length > 0) lines.push(restorePaths({ paths: layers.restorePaths }));
  if (layers.revert) {
    const paths = layers.revert.flatMap((c) => [c.oldPath, c.newPath]).filter((p): p is string => p !== undefined);
    lines.push(restorePaths({ paths: [...new Set(paths)] }));
  }
  if (keepsBytecode(artifact)) lines.push(...STAMP_WRITTEN_FILES);
  return { lines, candidate };
}

/** A PatchRejectedError from the stderr of a state script that exited with STATE_APPLY_FAILED. */
export function stateFailure(stderr: string): PatchRejectedError {
  const text = stderr.slice(stderr.indexOf(STATE_MARKER) + STATE_MARKER.length);
  const [layer, ...rest] = text.trim().split('\n');
  const detail = rest.find((l) => l.startsWith('error:')) ?? rest[0] ?? '';
  return new PatchRejectedError(rejectedFiles(rest.join('\n')), `${layer ?? 'a patch'}: ${detail}`);
}

/** Builds a state in /repo; `then` are more bash lines run in the same exec once it stands. */
export async function buildState(sandbox: Sandbox, artifact: BugArtifact, base: string, layers: StateLayers, then: string[] = []): Promise<void> {
  const script = stateScript(artifact, base, layers);
  if (script.candidate) await sandbox.writeFile(DIFFS_IN_CONTAINER.candidate, script.candidate);
  const result = await sandbox.exec(['set -e', ...script.lines, ...then].join('\n'), { timeoutMs: 120_000 });
  if (result.exitCode === STATE_APPLY_FAILED && result.stderr.includes(STATE_MARKER)) throw stateFailure(result.stderr);
  if (result.exitCode !== 0 || result.timedOut) {
    throw new SandboxError(`building the ${describe(layers)} state failed (exit ${result.exitCode}): ${result.stderr.trim().slice(-400)}`);
  }
}

function describe(layers: StateLayers): string {
  const parts = ['original'];
  if (layers.bug) parts.push('bug');
  if (layers.weaken) parts.push('weakened tests');
  if (layers.candidate) parts.push('candidate');
  return parts.join(' + ');
}
