/** `test-files` and `bug-scope`: what the artifact's files and diffs say, checked against the original repository. */
import { SandboxError } from '../../errors.js';
import { shellQuote } from '../../sandbox/sandbox.js';
import type { CheckContext } from '../check-context.js';
import { DIFFS_IN_CONTAINER, TEST_FILES_IN_CONTAINER } from '../container-paths.js';
import type { CheckOutcome } from '../check-types.js';
import { touchedPaths } from '../diff.js';
import { versionsAcrossDiff } from '../file-versions.js';
import { mayHoldTestConfig, testConfigChange, testInfrastructureReason } from '../test-infrastructure.js';

/** Why bug_inject.diff may not touch the files it does (test files, listed or not), or undefined. */
async function bugTouchesTests(ctx: CheckContext): Promise<string | undefined> {
  const testFiles = new Set(ctx.artifact.testFiles);
  const paths = touchedPaths(ctx.artifact.bugChanges);
  const listed = paths.filter((p) => testFiles.has(p));
  if (listed.length > 0) return `bug_inject.diff touches test files: ${listed.join(', ')}`;
  const infrastructure = paths.flatMap((p) => {
    const why = testInfrastructureReason(p);
    return why ? [`${p} (${why})`] : [];
  });
  if (infrastructure.length > 0) return `bug_inject.diff touches test infrastructure: ${infrastructure.join(', ')}`;
  const mixed = paths.filter(mayHoldTestConfig);
  if (mixed.length === 0) return undefined;
  const versions = await versionsAcrossDiff(await ctx.sandbox(), ctx.base, DIFFS_IN_CONTAINER.bug, mixed);
  // A diff that does not apply is reported by the first run that builds the buggy state.
  if (!versions) return undefined;
  const config: string[] = [];
  for (const p of mixed) {
    const v = versions.get(p);
    const why = v && (await testConfigChange(p, v.before, v.after));
    if (why) config.push(`${p} (${why})`);
  }
  return config.length > 0 ? `bug_inject.diff touches test infrastructure: ${config.join(', ')}` : undefined;
}

/**
 * Why a weakening that touches files outside test_files.txt is refused, in
 * words that tell the cause: most often it holds the bug's own change (an
 * injector that wrote `git diff` of no test files wrote the whole change).
 */
export function weakeningOutsideReason(outside: string[], bugPaths: string[]): string {
  const bug = new Set(bugPaths);
  const own = outside.filter((p) => bug.has(p));
  const why =
    own.length > 0
      ? `it holds the bug's own change to ${own.join(', ')} (the files bug_inject.diff changes); a weakening may change only the listed test files`
      : 'a weakening may change only the listed test files: list them in test_files.txt or leave them out of the diff';
  return `test_weaken.diff touches files not in test_files.txt: ${outside.join(', ')} — ${why}`;
}

export async function testFilesCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const { artifact } = ctx;
  const testFiles = new Set(artifact.testFiles);
  const base = shellQuote(ctx.base);
  // One git process for every file: each line "<base>:<path>" is answered "<base>:<path> missing" when there is no such object.
  const prefix = `${ctx.base}:`;
  const probe = `while IFS= read -r f || [ -n "$f" ]; do [ -n "$f" ] && printf '%s:%s\\n' ${base} "$f"; done < ${TEST_FILES_IN_CONTAINER} | git cat-file --batch-check`;
  const result = await ctx.exec(probe);
  if (result.exitCode !== 0) throw new SandboxError(`reading the original's files failed (exit ${result.exitCode}): ${result.stderr.trim().slice(-300)}`);
  const missing = result.stdout
    .split('\n')
    .filter((l) => l.startsWith(prefix) && l.endsWith(' missing'))
    .map((l) => l.slice(prefix.length, -' missing'.length));
  if (missing.length > 0) {
    return { verdict: 'fail', reason: `not in the original repository: ${missing.join(', ')}`, runs: [] };
  }
  const weakened = touchedPaths(artifact.weakenChanges);
  const outside = weakened.filter((p) => !testFiles.has(p));
  if (outside.length > 0) {
    return { verdict: 'fail', reason: weakeningOutsideReason(outside, touchedPaths(artifact.bugChanges)), runs: [] };
  }
  const touched = await bugTouchesTests(ctx);
  if (touched) return { verdict: 'fail', reason: touched, runs: [] };
  return {
    verdict: 'pass',
    reason: `${testFiles.size} test file(s) exist in the original; the weakening stays within them and the bug stays out of them and of the test infrastructure`,
    runs: [],
  };
}

export async function bugScopeCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const testFiles = new Set(ctx.artifact.testFiles);
  const codeFiles = ctx.artifact.bugChanges.filter((c) => !testFiles.has(c.newPath ?? c.oldPath ?? ''));
  const need = ctx.params.minChangedFiles;
  const names = codeFiles.map((c) => c.newPath ?? c.oldPath).join(', ');
  if (codeFiles.length < need) {
    return { verdict: 'fail', reason: `bug_inject.diff changes ${codeFiles.length} code file(s); at least ${need} required`, runs: [] };
  }
  return { verdict: 'pass', reason: `${codeFiles.length} code file(s) changed: ${names}`, runs: [] };
}
