/**
 * `bugbench verify-export PATH [--runs N] [--logs DIR] [--json]`: reruns each
 * instance of a swebench or rl export N times before and after its fix in a
 * fresh container of its image, and names every test whose result differs
 * from the instance's FAIL_TO_PASS / PASS_TO_PASS. Exit 0 when every instance
 * holds, 1 when any differs or could not be verified here (its image missing
 * or not adopted in this workspace: that instance's verdict says why).
 */
import { UsageError } from '../errors.js';
import { describeDifference } from '../datasets/export-verdict.js';
import { DEFAULT_VERIFY_RUNS, verifyExport, type VerifyEvent, type VerifyExportResult } from '../datasets/verify-export.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { parseFlags, positiveInt, printJson } from './args.js';
import { cancelOnInterrupt } from './interrupt.js';
import type { CommandModule } from './command.js';

const FLAGS = {
  runs: { type: 'string' },
  logs: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

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
      // Nothing ran (no dots): the verdict follows the colon.
      if (v.unverified !== undefined) return `NOT VERIFIED: ${v.unverified}\n`;
      const lines = [...v.problems.map((p) => `    run unusable: ${p}`), ...v.differences.map((d) => `    ${describeDifference(d)}`)];
      return ` DIFFERS (${v.differences.length} test(s)${v.problems.length ? `, ${v.problems.length} unusable run(s)` : ''}; logs in ${v.logs})\n${lines.join('\n')}\n`;
    }
  }
}

export async function verifyExportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'verify-export',
    args,
    FLAGS,
    1,
  );
  const path = positionals[0];
  if (!path) throw new UsageError('verify-export: give the export file (the JSONL of `bugbench export --format swebench` or `--format rl`)');
  const runs = positiveInt('runs', values.runs, 1) ?? DEFAULT_VERIFY_RUNS;
  const engine = defaultContainerEngine();
  await engine.reapOrphans();
  // Ctrl-C removes the instance's container before bugbench ends, as it does for the checks.
  const interrupt = cancelOnInterrupt('the verification');
  let result: VerifyExportResult;
  try {
    result = await verifyExport({ path, runs, logDir: values.logs }, { engine, signal: interrupt.signal }, (event) => {
      if (values.json) return;
      // Said once the file has been read whole: a file that is no export is refused before any line of progress.
      if (event.type === 'instance-started' && event.index === 0) {
        process.stderr.write(`verifying ${event.total} instance(s) of ${path}: each one's tests ${runs} time(s) before and after its fix, in a fresh container of its image\n`);
      }
      process.stderr.write(progressLine(event));
    });
  } finally {
    interrupt.dispose();
  }
  if (values.json) printJson(result);
  else {
    process.stdout.write(`${verifySummary(result)}\n`);
    process.stderr.write(`logs of every run in ${result.logs}\n`);
  }
  return verifyExitCode(result);
}

/** The last line: how many hold, differ, or could not be verified here. */
export function verifySummary(result: VerifyExportResult): string {
  const differ = result.differing ? `; ${result.differing} differ from their record` : '';
  const unverified = result.unverified ? `; ${result.unverified} could not be verified here (see above)` : '';
  return `${result.holding} of ${result.instances.length} instance(s) hold${differ}${unverified}`;
}

/** 0 when every instance was verified and holds; 1 when any differs or could not be verified. */
export function verifyExitCode(result: VerifyExportResult): number {
  return result.holding === result.instances.length ? 0 : 1;
}

export const command: CommandModule = {
  name: 'verify-export',
  summary: "rerun an export's instances and name every test that differs from its record",
  usage: ['bugbench verify-export <file.jsonl> [--runs N] [--logs DIR] [--json]   (swebench or rl export; exit 1 if any differs or cannot be verified)'],
  flags: FLAGS,
  run: verifyExportCommand,
};
