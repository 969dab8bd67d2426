/**
 * `bugbench export --format swebench|sft|rl|harbor|trajectories --out PATH [--status S]
 *    [--image T] [--include-scripted] [--rollout ID] [--json]`; `--out -` writes a JSONL format to standard output.
 * An export that would hold nothing writes nothing (a file or folder at --out stays as it was) and exits 1.
 */
import { existsSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { recoveredStore } from '../pipeline/startup.js';
import { filterBugs } from '../store/queries.js';
import type { BugStatus } from '../store/records.js';
import type { Store } from '../store/store.js';
import { EXPORT_FORMATS, exportDataset, FOLDER_FORMATS, type ExportFormat } from '../datasets/export.js';
import { isStdout } from '../datasets/out-target.js';
import { parseFlags, printJson, stderrProgress } from './args.js';
import { parseStatus, refuseUnknownImage } from './bugs.js';
import { cancelOnInterrupt } from './interrupt.js';
import type { CommandModule } from './command.js';
import { formatChoices, JSONL_FORMATS } from '../datasets/formats.js';

const FLAGS = {
  format: { type: 'string' },
  out: { type: 'string' },
  status: { type: 'string' },
  image: { type: 'string' },
  'include-scripted': { type: 'boolean', default: false },
  rollout: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export async function exportCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('export', args, FLAGS);
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
  if (values.rollout && values.image) throw new UsageError('export: --rollout names one rollout; leave out --image');
  const status = parseStatus(values.status) ?? 'accepted';
  const store = recoveredStore();
  refuseUnknownImage(store, values.image);
  // A Harbor export reads each bug's test files in a container of its image: Ctrl-C stops it and removes that container.
  const interrupt = format === 'harbor' ? cancelOnInterrupt('the export') : undefined;
  const result = await exportDataset(store, {
    format: format as ExportFormat,
    out: values.out,
    status,
    image: values.image,
    includeScripted: values['include-scripted'],
    rollout: values.rollout,
    progress: values.json ? undefined : stderrProgress,
    // An export of nothing is no dataset: it must not empty a file or folder already there.
    keepOutWhenEmpty: true,
    signal: interrupt?.signal,
  }).finally(() => interrupt?.dispose());
  if (values.json) printJson(result);
  else {
    // With the dataset on standard output, the summary goes to stderr.
    const say = (line: string) => (toStdout ? process.stderr : process.stdout).write(`${line}\n`);
    const what = format === 'harbor' ? 'Harbor task folder(s)' : format === 'trajectories' ? 'trajectory file(s)' : `${format} line(s)`;
    const from = values.rollout ? `rollout ${values.rollout}` : `${result.bugIds.length} ${status} bug(s)${values.image ? ` on ${values.image}` : ''}`;
    const where = result.written ? ` written to ${result.out}` : `, so nothing was written: ${result.out} ${existsSync(result.out) ? 'is left as it was' : 'was not made'}`;
    say(`${result.count} ${what} from ${from}${where}`);
    for (const left of result.leftOut) say(`  left out ${left.count}: ${left.reason}`);
    for (const skip of result.skipped) say(`  skipped ${skip.id}: ${skip.reason}`);
    for (const note of result.notes) say(`  note: ${note}`);
  }
  if (result.count === 0 && !values.rollout) {
    const hint = emptyExportHint(store, status, values.image);
    if (hint) process.stderr.write(`${hint}\n`);
  }
  return result.written ? 0 : 1;
}

/** Why an export came out empty, when other bugs could have filled it: the valid bugs that wait for review. */
function emptyExportHint(store: Store, status: BugStatus, image: string | undefined): string | undefined {
  if (status !== 'accepted') return undefined;
  const waiting = filterBugs(store.all('bugs'), { status: 'valid', image }).length;
  if (waiting === 0) return undefined;
  const where = image ? ` on ${image}` : '';
  return `no bug${where} is accepted yet; ${waiting} valid bug(s)${where} wait for review (\`bugbench accept <bug-id>\`, or Review in \`bugbench tui\`), or export them unreviewed with --status valid`;
}

export const command: CommandModule = {
  name: 'export',
  summary: 'write the accepted bugs as a dataset (JSONL, or Harbor / trajectory folders)',
  usage: [
    `bugbench export --format ${formatChoices(JSONL_FORMATS)} --out FILE|- [--status S] [--image T] [--include-scripted] [--json]   (- is standard output)`,
    `bugbench export --format ${formatChoices(FOLDER_FORMATS)} --out DIR [--status S] [--image T] [--rollout ID] [--json]`,
  ],
  flags: FLAGS,
  run: exportCommand,
};
