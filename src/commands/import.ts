/** `bugbench import <artifact-dir> [--image T] [--json]`: adds a bug made elsewhere to the library and checks it. */
import { reportJson } from '../bugs/check-report.js';
import { UsageError } from '../errors.js';
import { importArtifact } from '../pipeline/import.js';
import { openWorkspace } from '../pipeline/startup.js';
import { parseFlags, printJson } from './args.js';
import { bugJson } from './bugs.js';
import { cancelOnInterrupt } from './interrupt.js';
import type { CommandModule } from './command.js';

const FLAGS = { image: { type: 'string' }, json: { type: 'boolean', default: false } } as const;

export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('import', args, FLAGS, 1);
  const folder = positionals[0];
  if (!folder) throw new UsageError('import: give the artifact folder (test_files.txt, test_script.sh, test_parser.py, bug_inject.diff, test_weaken.diff)');
  const store = await openWorkspace();
  const interrupt = cancelOnInterrupt('the checks');
  try {
    const { bug, report } = await importArtifact({ folder, image: values.image }, { store, signal: interrupt.signal });
    if (values.json) printJson({ ...bugJson(store, bug), report: reportJson(report) });
    else process.stdout.write(`${bug.id} ${bug.status}${bug.check?.failedCheck ? ` (${bug.check.failedCheck}: ${bug.check.reason})` : ''}\n`);
    return report.valid ? 0 : report.cancelled ? 130 : 1;
  } finally {
    interrupt.dispose();
  }
}

export const command: CommandModule = {
  name: 'import',
  summary: 'add a bug artifact made elsewhere to the library and check it',
  usage: [
    'bugbench import <artifact-dir> [--image T] [--json]',
  ],
  flags: FLAGS,
  run: importCommand,
};
