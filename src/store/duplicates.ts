/**
 * Duplicate bugs: on one image and base commit, bugs whose bug_inject.diff has
 * the same fingerprint are one bug. The first that passed its checks keeps it;
 * later ones are marked `duplicate` of it. Invalid bugs claim nothing, so a
 * valid copy of a bug whose first try failed its checks is kept.
 */
import type { BugRecord, BugStatus } from './records.js';

const CLAIMING: readonly BugStatus[] = ['valid', 'accepted', 'rejected', 'duplicate'];

/** The id of the bug `bug` duplicates, or undefined if it is the first of its kind. */
export function duplicateRoot(bugs: Iterable<BugRecord>, bug: Pick<BugRecord, 'id' | 'image' | 'baseCommit' | 'fingerprint' | 'createdAt'>): string | undefined {
  let first: BugRecord | undefined;
  for (const other of bugs) {
    if (other.id === bug.id || other.fingerprint !== bug.fingerprint || other.baseCommit !== bug.baseCommit || other.image !== bug.image) continue;
    if (!CLAIMING.includes(other.status)) continue;
    if (other.createdAt > bug.createdAt) continue;
    if (!first || other.createdAt < first.createdAt) first = other;
  }
  return first ? (first.duplicateOf ?? first.id) : undefined;
}
