/** `test-files` and `bug-scope`: what the artifact's files and diffs say, checked against the original repository. */
import { shellQuote } from '../../sandbox/sandbox.js';
import type { CheckContext } from '../check-context.js';
import { TEST_FILES_IN_CONTAINER } from '../container-paths.js';
import type { CheckOutcome } from '../check-types.js';
import { touchedPaths } from '../diff.js';

export async function testFilesCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const { artifact } = ctx;
  const testFiles = new Set(artifact.testFiles);
  const base = shellQuote(ctx.base);
  const probe = `while IFS= read -r f || [ -n "$f" ]; do [ -z "$f" ] && continue; git cat-file -e ${base}:"$f" 2>/dev/null || echo "$f"; done < ${TEST_FILES_IN_CONTAINER}`;
  const result = await ctx.exec(probe);
  const missing = result.stdout.split('\n').filter((l) => l !== '');
  if (missing.length > 0) {
    return { verdict: 'fail', reason: `not in the original repository: ${missing.join(', ')}`, runs: [] };
  }
  const weakened = touchedPaths(artifact.weakenChanges);
  const outside = weakened.filter((p) => !testFiles.has(p));
  if (outside.length > 0) {
    return { verdict: 'fail', reason: `test_weaken.diff touches files not in test_files.txt: ${outside.join(', ')}`, runs: [] };
  }
  const bugTouchesTests = touchedPaths(artifact.bugChanges).filter((p) => testFiles.has(p));
  if (bugTouchesTests.length > 0) {
    return { verdict: 'fail', reason: `bug_inject.diff touches test files: ${bugTouchesTests.join(', ')}`, runs: [] };
  }
  return {
    verdict: 'pass',
    reason: `${testFiles.size} test file(s) exist in the original; the weakening stays within them and the bug stays out`,
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
