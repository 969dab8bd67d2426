/** `bugbench bugs [--status S] [--image T] [--strategy S] [--order N] [--json]` */
import { UsageError } from '../errors.js';
import { bugDir } from '../pipeline/bug-checks.js';
import { filterBugs, type BugFilter } from '../store/queries.js';
import { BUG_STATUSES, trajectoryOf, type BugRecord, type BugStatus } from '../store/records.js';
import { recoverAbandoned } from '../store/recover.js';
import { openStore, type Store } from '../store/store.js';
import { parseFlags, positiveInt, printJson } from './args.js';
import { formatTable } from './table.js';

export function parseStatus(value: string | undefined): BugStatus | undefined {
  if (value === undefined) return undefined;
  if (!(BUG_STATUSES as readonly string[]).includes(value)) throw new UsageError(`--status must be one of ${BUG_STATUSES.join(', ')}, got "${value}"`);
  return value as BugStatus;
}

export async function bugsCommand(args: string[]): Promise<number> {
  const { values } = parseFlags('bugs', args, {
    status: { type: 'string' },
    image: { type: 'string' },
    strategy: { type: 'string' },
    order: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const filter: BugFilter = {
    status: parseStatus(values.status),
    image: values.image,
    strategy: values.strategy,
    order: positiveInt('order', values.order, 1),
  };
  const store = openStore();
  recoverAbandoned(store);
  const bugs = filterBugs(store.all('bugs'), filter);
  if (values.json) printJson(bugs.map((bug) => bugJson(store, bug)));
  else process.stdout.write(formatBugs(bugs));
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

export function formatBugs(bugs: BugRecord[]): string {
  if (bugs.length === 0) return 'no bugs match; make some with `bugbench inject`\n';
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
