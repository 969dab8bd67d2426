/**
 * `bugbench verify-export PATH [--runs N] [--logs DIR] [--json]`: reruns each
 * instance of a swebench or rl export N times before and after its fix in a
 * fresh container of its image, and names every test whose result differs
 * from the instance's FAIL_TO_PASS / PASS_TO_PASS. Exit 0 when every instance
 * holds, 1 when any differs.
 */
import { UsageError } from '../errors.js';
import { describeDifference } from '../datasets/export-verdict.js';
import { DEFAULT_VERIFY_RUNS, verifyExport, type VerifyEvent } from '../datasets/verify-export.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { parseFlags, positiveInt, printJson } from './args.js';

/** Progress on stderr: an instance as it starts, a dot a run, its verdict with what differs. */
function progressLine(event: VerifyEvent): string {
  switch (event.type) {
    case 'instance-started':
      return `[${event.index + 1}/${event.total}] ${event.id} on ${event.image}: `;
    case 'run-finished':
      return event.problem ? `!` : '.';
    case 'instance-finished': {
      const v = event.verdict;
      if (v.holds) return ' holds\n';
      const lines = [...v.problems.map((p) => `    run unusable: ${p}`), ...v.differences.map((d) => `    ${describeDifference(d)}`)];
      return ` DIFFERS (${v.differences.length} test(s)${v.problems.length ? `, ${v.problems.length} unusable run(s)` : ''}; logs in ${v.logs})\n${lines.join('\n')}\n`;
    }
  }
}

export async function verifyExportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'verify-export',
    args,
    {
      runs: { type: 'string' },
      logs: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    1,
  );
  const path = positionals[0];
  if (!path) throw new UsageError('verify-export: give the export file (the JSONL of `bugbench export --format swebench` or `--format rl`)');
  const runs = positiveInt('runs', values.runs, 1) ?? DEFAULT_VERIFY_RUNS;
  const engine = defaultContainerEngine();
  await engine.reapOrphans();
  const result = await verifyExport({ path, runs, logDir: values.logs }, { engine }, (event) => {
    if (values.json) return;
    // Said once the file has been read whole: a file that is no export is refused before any line of progress.
    if (event.type === 'instance-started' && event.index === 0) {
      process.stderr.write(`verifying ${event.total} instance(s) of ${path}: each one's tests ${runs} time(s) before and after its fix, in a fresh container of its image\n`);
    }
    process.stderr.write(progressLine(event));
  });
  if (values.json) printJson(result);
  else process.stdout.write(`${result.holding} of ${result.instances.length} instance(s) hold${result.differing ? `; ${result.differing} differ from their record` : ''}\n`);
  return result.differing === 0 ? 0 : 1;
}
