/** `bugbench eval <bug-id | artifact-dir> --patch FILE [--image TAG] [--json]` */
import { evaluatePatch } from '../bugs/evaluate.js';
import { readPatchFile } from '../bugs/patch-file.js';
import { resolveBug } from '../bugs/resolve.js';
import { UsageError } from '../errors.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { parseFlags, positiveInt, printJson, stderrProgress } from './args.js';
import type { CommandModule } from './command.js';

const FLAGS = {
  patch: { type: 'string' },
  image: { type: 'string' },
  timeout: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export async function evalCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'eval',
    args,
    FLAGS,
    1,
  );
  const ref = positionals[0];
  if (!ref) throw new UsageError('eval: give a bug id or an artifact folder');
  if (!values.patch) throw new UsageError('eval: give the candidate patch with --patch FILE');
  // Read and parsed before any container starts: a file that is no patch is refused at once.
  const patch = readPatchFile(values.patch);
  const timeout = positiveInt('timeout', values.timeout, 1);
  await defaultContainerEngine().reapOrphans();
  const bug = await resolveBug(defaultContainerEngine(), ref, {
    image: values.image,
    params: timeout ? { testTimeoutSec: timeout } : {},
    purpose: 'eval',
  });
  if (!values.json) stderrProgress('running the original and buggy states to find FAIL_TO_PASS and PASS_TO_PASS, then the patch…');
  const result = await evaluatePatch(
    { artifact: bug.artifact, image: bug.image, baseCommit: bug.baseCommit, params: bug.params, logDir: bug.logDir, parallelism: 1 },
    patch,
  );
  if (values.json) printJson({ solved: result.solved, failing: result.failing, results: result.results, ...(result.error ? { error: result.error } : {}) });
  else {
    process.stdout.write(result.solved ? 'SOLVED\n' : `NOT SOLVED${result.error ? `: ${result.error}` : ''}\n`);
    if (result.failing.length > 0) process.stdout.write(`failing (${result.failing.length}):\n${result.failing.map((t) => `  ${t}`).join('\n')}\n`);
  }
  return result.solved ? 0 : 1;
}

export const command: CommandModule = {
  name: 'eval',
  summary: 'evaluate a candidate patch against a bug',
  usage: [
    'bugbench eval <bug-id | artifact-dir> --patch FILE [--image T] [--timeout S] [--json]',
  ],
  flags: FLAGS,
  run: evalCommand,
};
