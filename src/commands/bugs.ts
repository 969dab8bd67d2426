/** `bugbench bugs [--status S] [--image T] [--strategy S] [--order N] [--json]` */
import { NotFoundError, UsageError } from '../errors.js';
import { bugDir } from '../pipeline/bug-checks.js';
import { filterBugs, type BugFilter } from '../store/queries.js';
import { BUG_STATUSES, trajectoryOf, type BugRecord, type BugStatus } from '../store/records.js';
import { recoveredStore } from '../pipeline/startup.js';
import { STRATEGIES } from '../pipeline/injectors.js';
import { recordedImageName, sameImageName } from '../sandbox/image-names.js';
import type { Store } from '../store/store.js';
import { parseFlags, positiveInt, printJson } from './args.js';
import { formatTable } from './table.js';
import type { CommandModule } from './command.js';

export function parseStatus(value: string | undefined): BugStatus | undefined {
  if (value === undefined) return undefined;
  if (!(BUG_STATUSES as readonly string[]).includes(value)) throw new UsageError(`--status must be one of ${BUG_STATUSES.join(', ')}, got "${value}"`);
  return value as BugStatus;
}

/** An image the workspace has never seen is a mistake (a typo, a missing tag), not an empty answer. */
export function refuseUnknownImage(store: Store, image: string | undefined): void {
  if (image === undefined || store.get('images', image) || store.get('images', recordedImageName(image))) return;
  const all = store.all('bugs');
  if (all.some((b) => sameImageName(b.image, image))) return;
  const known = [...new Set(all.map((b) => b.image))].sort();
  throw new NotFoundError(`no image ${image} in the workspace${known.length > 0 ? `; its bugs are on ${known.join(', ')}` : ''}`);
}

/** A strategy no bug could have is a typo, refused with the names there are, not an empty answer. */
export function refuseUnknownStrategy(bugs: BugRecord[], strategy: string | undefined): void {
  if (strategy === undefined) return;
  const known = [...new Set<string>([...STRATEGIES, ...bugs.map((b) => b.strategy)])];
  if (!known.includes(strategy)) throw new UsageError(`--strategy must be one of ${known.join(', ')}, got "${strategy}"`);
}

const FLAGS = {
  status: { type: 'string' },
  image: { type: 'string' },
  strategy: { type: 'string' },
  order: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export async function bugsCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('bugs', args, FLAGS);
  const filter: BugFilter = {
    status: parseStatus(values.status),
    image: values.image,
    strategy: values.strategy,
    order: positiveInt('order', values.order, 1),
  };
  const store = recoveredStore();
  const all = store.all('bugs');
  refuseUnknownImage(store, filter.image);
  refuseUnknownStrategy(all, filter.strategy);
  const bugs = filterBugs(all, filter);
  if (values.json) printJson(bugs.map((bug) => bugJson(store, bug)));
  else process.stdout.write(formatBugs(bugs, all.length));
  return 0;
}

/** A bug record as the CLI prints it: paths absolute. */
export function bugJson(store: Store, bug: BugRecord) {
  const trajectory = trajectoryOf(bug);
  return { ...bug, artifactDir: bugDir(store, bug.id), trajectory: trajectory ? store.abs(trajectory) : null };
}

function note(bug: BugRecord): string {
  if (bug.status === 'invalid') return `failed ${bug.check?.failedCheck ?? '?'}`;
  if (bug.status === 'duplicate') return `of ${bug.duplicateOf}`;
  if (bug.review?.reason) return bug.review.reason.slice(0, 60);
  return '';
}

/** `total`: the bugs of the workspace, to tell an empty library from filters that match nothing. */
export function formatBugs(bugs: BugRecord[], total = bugs.length): string {
  if (bugs.length === 0) return total === 0 ? 'no bugs yet; make some with `bugbench inject` or `bugbench import`\n' : `no bug matches these filters (the workspace has ${total})\n`;
  const rows = bugs.map((b) => [
    b.id,
    b.status,
    b.image,
    b.strategy,
    String(b.order),
    b.check?.valid ? String(b.check.failToPass) : '-',
    b.createdAt.slice(0, 16).replace('T', ' '),
    note(b),
  ]);
  return formatTable(['ID', 'STATUS', 'IMAGE', 'STRATEGY', 'ORDER', 'F2P', 'CREATED', 'NOTE'], rows);
}

export const command: CommandModule = {
  name: 'bugs',
  summary: 'list the bugs of the workspace',
  usage: [
    'bugbench bugs [--status S] [--image T] [--strategy S] [--order N] [--json]',
  ],
  flags: FLAGS,
  run: bugsCommand,
};
