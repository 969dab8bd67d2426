/** Questions asked of the bugs in the store: filtered lists and counts per image. */
import { BUG_STATUSES, PASSED_STATUSES, type BugRecord, type BugStatus } from './records.js';
import { recordedImageName, sameImageName } from '../sandbox/image-names.js';

export interface BugFilter {
  status?: BugStatus;
  image?: string;
  strategy?: string;
  order?: number;
  /** Only bugs whose id contains this text. */
  text?: string;
}

export function matchesFilter(bug: BugRecord, filter: BugFilter): boolean {
  return (
    (filter.status === undefined || bug.status === filter.status) &&
    (filter.image === undefined || sameImageName(bug.image, filter.image)) &&
    (filter.strategy === undefined || bug.strategy === filter.strategy) &&
    (filter.order === undefined || bug.order === filter.order) &&
    (filter.text === undefined || bug.id.includes(filter.text))
  );
}

export function filterBugs(bugs: Iterable<BugRecord>, filter: BugFilter): BugRecord[] {
  const out: BugRecord[] = [];
  for (const bug of bugs) if (matchesFilter(bug, filter)) out.push(bug);
  return out;
}

export type StatusCounts = Record<BugStatus, number>;

export function emptyCounts(): StatusCounts {
  return Object.fromEntries(BUG_STATUSES.map((s) => [s, 0])) as StatusCounts;
}

/** Bugs per image tag, by status. */
export function countsByImage(bugs: Iterable<BugRecord>): Map<string, StatusCounts> {
  const counts = new Map<string, StatusCounts>();
  for (const bug of bugs) {
    // Bugs recorded as `x` and as `x:latest` (before runs recorded one name) are one image's.
    const image = recordedImageName(bug.image);
    let row = counts.get(image);
    if (!row) counts.set(image, (row = emptyCounts()));
    row[bug.status]++;
  }
  return counts;
}

/** The bugs that passed their checks and are not rejected or duplicates: what "valid bugs" counts. */
export function passedCount(counts: Partial<StatusCounts>): number {
  return PASSED_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
}

/** "3 valid (1 accepted); 1 invalid, 2 cancelled": valid first with the accepted among them, the others after, zeros left out. */
export function describeCounts(counts: Partial<StatusCounts>): string {
  const others = BUG_STATUSES.filter((s) => !PASSED_STATUSES.includes(s) && (counts[s] ?? 0) > 0).map((s) => `${counts[s]} ${s}`);
  const accepted = counts.accepted ? ` (${counts.accepted} accepted)` : '';
  return `${passedCount(counts)} valid${accepted}${others.length > 0 ? `; ${others.join(', ')}` : ''}`;
}
