/**
 * The test-files check through the test-infrastructure rule, with a stand-in
 * container that answers git's questions from strings: a bug that edits a
 * Rust test module or package.json's test script is refused, naming the
 * file and the part; one that edits only the code around them passes.
 */
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../src/bugs/check-context.js';
import { testFilesCheck } from '../../../src/bugs/checks/static-checks.js';
import type { FileChange } from '../../../src/bugs/diff.js';

/** A context whose container has `versions` of each path before and after bug_inject.diff. */
function context(versions: Record<string, [string, string]>): CheckContext {
  const paths = Object.keys(versions);
  const line = (text: string) => Buffer.from(text).toString('base64');
  const sandbox = {
    exec: async (script: string) => {
      // The versions script reads each path twice, in the order given; any other script is the probe of test_files.txt.
      if (!script.includes('read-tree')) return { exitCode: 0, stdout: '', stderr: '', timedOut: false };
      const stdout = paths.map((p) => `${line(versions[p]![0])}\n${line(versions[p]![1])}\n`).join('');
      return { exitCode: 0, stdout, stderr: '', timedOut: false };
    },
  };
  const change = (path: string): FileChange => ({ oldPath: path, newPath: path, added: 1, removed: 1, binary: false });
  return {
    artifact: { testFiles: ['tests/span.rs'], bugChanges: paths.map(change), weakenChanges: [change('tests/span.rs')] },
    base: 'abc123',
    sandbox: async () => sandbox,
    exec: sandbox.exec,
  } as unknown as CheckContext;
}

const LIB = 'pub fn one() -> u8 {\n    1\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn one_is_one() {\n        assert_eq!(super::one(), 1);\n    }\n}\n';
const PKG = JSON.stringify({ name: 'spans', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2);

describe('test-files on the test parts of shared files', () => {
  it('passes a bug that changes only code around a test module and package.json outside its test script', async () => {
    const outcome = await testFilesCheck(
      context({ 'src/lib.rs': [LIB, LIB.replace('    1\n', '    2\n')], 'package.json': [PKG, PKG.replace('1.0.0', '1.0.1')] }),
    );
    expect(outcome.verdict).toBe('pass');
  });

  it('refuses a bug that edits a #[cfg(test)] module or the test script, naming each', async () => {
    const outcome = await testFilesCheck(
      context({
        'src/lib.rs': [LIB, LIB.replace('assert_eq!(super::one(), 1)', 'assert_eq!(super::one(), 2)')],
        'package.json': [PKG, PKG.replace('node --test', 'node --test --test-skip-pattern=one')],
      }),
    );
    expect(outcome).toMatchObject({
      verdict: 'fail',
      reason: "bug_inject.diff touches test infrastructure: src/lib.rs (#[cfg(test)] mod tests), package.json (package.json's test script)",
    });
  });

  it('refuses a bug in a Go test helper by its name, before reading any content', async () => {
    const outcome = await testFilesCheck(context({ 'span_helpers_test.go': ['', ''] }));
    expect(outcome).toMatchObject({ verdict: 'fail', reason: 'bug_inject.diff touches test infrastructure: span_helpers_test.go (a Go test file (*_test.go))' });
  });
});
