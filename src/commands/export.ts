/** `bugbench export --format swebench|sft|rl --out FILE [--status S] [--include-scripted] [--json]` */
import { UsageError } from '../errors.js';
import { recoverAbandoned } from '../store/recover.js';
import { openStore } from '../store/store.js';
import { EXPORT_FORMATS, exportDataset, type ExportFormat } from '../datasets/export.js';
import { parseFlags, printJson, stderrProgress } from './args.js';
import { parseStatus } from './bugs.js';

export async function exportCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('export', args, {
    format: { type: 'string' },
    out: { type: 'string' },
    status: { type: 'string' },
    'include-scripted': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  const format = values.format;
  if (!format || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`export: --format must be one of ${EXPORT_FORMATS.join(', ')}${format ? `, got "${format}"` : ''}`);
  }
  if (!values.out) throw new UsageError('export: give the file to write with --out FILE');
  if (values['include-scripted'] && format !== 'sft') throw new UsageError('export: --include-scripted goes with --format sft');
  const status = parseStatus(values.status) ?? 'accepted';
  const store = openStore();
  recoverAbandoned(store);
  const result = await exportDataset(store, { format: format as ExportFormat, out: values.out, status, includeScripted: values['include-scripted'], progress: values.json ? undefined : stderrProgress });
  if (values.json) printJson(result);
  else {
    process.stdout.write(`${result.count} ${format} line(s) from ${result.bugIds.length} ${status} bug(s) written to ${result.out}\n`);
    for (const left of result.leftOut) process.stdout.write(`  left out ${left.count}: ${left.reason}\n`);
    for (const skip of result.skipped) process.stdout.write(`  skipped ${skip.id}: ${skip.reason}\n`);
  }
  return 0;
}
