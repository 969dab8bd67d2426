/**
 * `bugbench export --format swebench|sft|rl|harbor|trajectories --out PATH [--status S]
 *    [--include-scripted] [--rollout ID] [--json]`; `--out -` writes a JSONL format to standard output.
 */
import { UsageError } from '../errors.js';
import { recoveredStore } from '../pipeline/startup.js';
import { EXPORT_FORMATS, exportDataset, FOLDER_FORMATS, type ExportFormat } from '../datasets/export.js';
import { isStdout } from '../datasets/out-target.js';
import { parseFlags, printJson, stderrProgress } from './args.js';
import { parseStatus } from './bugs.js';

export async function exportCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('export', args, {
    format: { type: 'string' },
    out: { type: 'string' },
    status: { type: 'string' },
    'include-scripted': { type: 'boolean', default: false },
    rollout: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const format = values.format;
  if (!format || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`export: --format must be one of ${EXPORT_FORMATS.join(', ')}${format ? `, got "${format}"` : ''}`);
  }
  const folder = FOLDER_FORMATS.includes(format as ExportFormat);
  if (!values.out) throw new UsageError(`export: give the ${folder ? 'folder' : 'file'} to write with --out ${folder ? 'DIR' : 'FILE'}`);
  if (values.rollout && format !== 'trajectories') throw new UsageError('export: --rollout goes with --format trajectories');
  if (values['include-scripted'] && format !== 'sft') throw new UsageError('export: --include-scripted goes with --format sft');
  const toStdout = isStdout(values.out);
  if (toStdout && values.json) throw new UsageError('export: --json and --out - both write to standard output; give --out a file');
  const status = parseStatus(values.status) ?? 'accepted';
  const store = recoveredStore();
  const result = await exportDataset(store, {
    format: format as ExportFormat,
    out: values.out,
    status,
    includeScripted: values['include-scripted'],
    rollout: values.rollout,
    progress: values.json ? undefined : stderrProgress,
  });
  if (values.json) printJson(result);
  else {
    // With the dataset on standard output, the summary goes to stderr.
    const say = (line: string) => (toStdout ? process.stderr : process.stdout).write(`${line}\n`);
    const what = format === 'harbor' ? 'Harbor task folder(s)' : format === 'trajectories' ? 'trajectory file(s)' : `${format} line(s)`;
    const from = values.rollout ? `rollout ${values.rollout}` : `${result.bugIds.length} ${status} bug(s)`;
    say(`${result.count} ${what} from ${from} written to ${result.out}`);
    for (const left of result.leftOut) say(`  left out ${left.count}: ${left.reason}`);
    for (const skip of result.skipped) say(`  skipped ${skip.id}: ${skip.reason}`);
  }
  return 0;
}
