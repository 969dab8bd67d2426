/**
 * Duplicate bugs: on one image and base commit, bugs whose bug_inject.diff has
 * the same fingerprint are one bug. The first to claim the fingerprint — by
 * reaching a claiming status under the store's lock — keeps it, whatever order
 * the bugs were made in or their checks finish in; every later one is marked
 * `duplicate` of it. Invalid bugs and bugs still being checked claim nothing,
 * so a valid copy of a bug whose first try failed its checks is kept.
 */
import { recordedImageName } from '../sandbox/image-names.js';
import type { BugRecord, BugStatus } from './records.js';

const CLAIMING: readonly BugStatus[] = ['valid', 'accepted', 'rejected', 'duplicate'];

type Claimant = Pick<BugRecord, 'id' | 'image' | 'baseCommit' | 'fingerprint'>;

/** What makes two bugs one: the image (`x` and `x:latest` are one), the base commit and the fingerprint. */
export function bugKey(bug: Omit<Claimant, 'id'>): string {
  return `${recordedImageName(bug.image)}\0${bug.baseCommit}\0${bug.fingerprint}`;
}

/**
 * The id of the bug that holds `bug`'s fingerprint, or undefined if none does
 * (then `bug` may claim it). Called under the store's lock when a verdict is
 * recorded, so two bugs cannot both claim one fingerprint.
 */
export function duplicateRoot(bugs: Iterable<BugRecord>, bug: Claimant): string | undefined {
  let holder: BugRecord | undefined;
  for (const other of bugs) {
    if (other.id === bug.id || bugKey(other) !== bugKey(bug) || !CLAIMING.includes(other.status)) continue;
    // Bugs that claimed before this rule held (two valid copies) resolve to the oldest.
    if (!holder || other.createdAt < holder.createdAt) holder = other;
  }
  const root = holder ? (holder.duplicateOf ?? holder.id) : undefined;
  return root === bug.id ? undefined : root;
}
