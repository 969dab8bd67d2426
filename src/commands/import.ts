/** `bugbench import <artifact-dir> [--image T] [--json]`: adds a bug made elsewhere to the library and checks it. */
import { reportJson } from '../bugs/check-report.js';
import { UsageError } from '../errors.js';
import { importArtifact } from '../pipeline/import.js';
import { reapOrphansEverywhere } from '../sandbox/orphans.js';
import { recoverAbandoned } from '../store/recover.js';
import { openStore } from '../store/store.js';
import { parseFlags, printJson } from './args.js';
import { bugJson } from './bugs.js';
import { cancelOnInterrupt } from './interrupt.js';

export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('import', args, { image: { type: 'string' }, json: { type: 'boolean', default: false } }, 1);
  const folder = positionals[0];
  if (!folder) throw new UsageError('import: give the artifact folder (test_files.txt, test_script.sh, test_parser.py, bug_inject.diff, test_weaken.diff)');
  await reapOrphansEverywhere();
  const store = openStore();
  recoverAbandoned(store);
  const interrupt = cancelOnInterrupt('the checks');
  try {
    const { bug, report } = await importArtifact(store, folder, { image: values.image, signal: interrupt.signal });
    if (values.json) printJson({ ...bugJson(store, bug), report: reportJson(report) });
    else process.stdout.write(`${bug.id} ${bug.status}${bug.check?.failedCheck ? ` (${bug.check.failedCheck}: ${bug.check.reason})` : ''}\n`);
    return report.valid ? 0 : report.cancelled ? 130 : 1;
  } finally {
    interrupt.dispose();
  }
}
