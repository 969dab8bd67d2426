/**
 * `inverse-mutation`: every file the bug changes must matter. From the full
 * buggy state, revert one file at a time and run the oracle tests; some test the
 * bug broke must pass again, else that file is not needed. Files are spread over
 * up to `parallelism` containers.
 */
import type { Sandbox } from '../../sandbox/sandbox.js';
import type { CheckContext } from '../check-context.js';
import type { CheckOutcome } from '../check-types.js';
import type { FileChange } from '../diff.js';
import type { RunRecord } from '../test-run.js';
import { passingAmong } from '../test-results.js';

function fileName(change: FileChange): string {
  return change.newPath ?? change.oldPath ?? '?';
}

export async function inverseMutationCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const { failToPass } = await ctx.testSpec();
  if (failToPass.length === 0) return { verdict: 'fail', reason: 'the bug breaks no test, so no file can be shown to matter', runs: [] };
  const testFiles = new Set(ctx.artifact.testFiles);
  const changes = ctx.artifact.bugChanges.filter((c) => !testFiles.has(fileName(c)));
  if (changes.length === 1) {
    return {
      verdict: 'pass',
      reason: `the bug changes one file (${fileName(changes[0]!)}); reverting it restores the original code, where all ${failToPass.length} broken test(s) pass`,
      runs: [],
    };
  }

  const sandboxes = await ctx.sandboxes(Math.max(1, Math.min(ctx.setup.parallelism, changes.length)));
  const queue = [...changes];
  const results = new Map<FileChange, RunRecord>();
  const worker = async (sandbox: Sandbox) => {
    for (let change = queue.shift(); change; change = queue.shift()) {
      const run = await ctx.runIn(sandbox, `revert ${fileName(change)}`, { bug: true, restoreTests: true, revert: [change] });
      results.set(change, run);
    }
  };
  await Promise.all(sandboxes.map(worker));

  const runs = changes.map((c) => results.get(c)!);
  const unneeded = changes.filter((c) => passingAmong(failToPass, results.get(c)!.results).length === 0);
  if (unneeded.length > 0) {
    return {
      verdict: 'fail',
      reason: `reverting ${unneeded.map(fileName).join(', ')} alone fixes none of the ${failToPass.length} broken test(s): not needed for the bug`,
      runs,
    };
  }
  const counts = changes.map((c) => `${fileName(c)} → ${passingAmong(failToPass, results.get(c)!.results).length}`);
  return { verdict: 'pass', reason: `every file matters (tests fixed by reverting it alone: ${counts.join(', ')})`, runs };
}
