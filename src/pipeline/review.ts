/**
 * A person's judgement of a bug: accept it for the dataset or reject it with
 * a reason. Who and when are recorded; every decision is kept in order. Only
 * a bug that passed its checks can be accepted.
 */
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { BugbenchError, UsageError } from '../errors.js';
import type { BugRecord, Review } from '../store/records.js';
import { RecordNotFoundError, type Store } from '../store/store.js';

export class ReviewRefusedError extends BugbenchError {
  constructor(message: string) {
    super('BB_REVIEW_REFUSED', message);
  }
}

/** Who is reviewing: BUGBENCH_REVIEWER, else the login name and host. */
export function reviewer(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BUGBENCH_REVIEWER) return env.BUGBENCH_REVIEWER;
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry (some containers)
  }
  return `${name}@${hostname()}`;
}

/** Why a bug cannot be accepted, or undefined when it can. */
export function acceptRefusal(bug: BugRecord): string | undefined {
  switch (bug.status) {
    case 'valid':
    case 'accepted':
      return undefined;
    case 'rejected':
      // A duplicate rejected is still a copy of another bug: accepting it would put that bug in the dataset twice.
      if (bug.duplicateOf) return `bug ${bug.id} is a duplicate of ${bug.duplicateOf}; accept that one instead`;
      return bug.check?.valid ? undefined : `bug ${bug.id} was rejected and its last checks did not pass`;
    case 'invalid':
      return `bug ${bug.id} is invalid: check ${bug.check?.failedCheck ?? '?'} failed (${bug.check?.reason ?? 'no reason recorded'}); only valid bugs can be accepted`;
    case 'duplicate':
      return `bug ${bug.id} is a duplicate of ${bug.duplicateOf}; accept that one instead`;
    case 'cancelled':
      return `bug ${bug.id} has no verdict: its checks were cancelled; run \`bugbench check ${bug.id}\` first`;
    case 'checking':
      return `bug ${bug.id} is still being checked; accept it once it is valid`;
  }
}

function decide(store: Store, id: string, review: Review, refusal: (bug: BugRecord) => string | undefined): BugRecord {
  return store.transact((tx) => {
    const bug = tx.get('bugs', id);
    if (!bug) throw new RecordNotFoundError('bugs', id);
    const refused = refusal(bug);
    if (refused) throw new ReviewRefusedError(refused);
    tx.put('reviews', { ...review, id: randomUUID(), bugId: id });
    return tx.patch('bugs', id, { status: review.decision, review, updatedAt: review.at });
  });
}

export function acceptBug(store: Store, id: string, reason: string | null = null, by: string = reviewer()): BugRecord {
  // Accepting an accepted bug again without a reason changes nothing: its review and reason stay.
  const current = store.get('bugs', id);
  if (current?.status === 'accepted' && reason === null && current.review?.decision === 'accepted') return current;
  return decide(store, id, { decision: 'accepted', reason, by, at: new Date().toISOString() }, acceptRefusal);
}

export function rejectBug(store: Store, id: string, reason: string, by: string = reviewer()): BugRecord {
  if (reason.trim() === '') throw new UsageError('reject: give the reason with --reason R');
  return decide(store, id, { decision: 'rejected', reason: reason.trim(), by, at: new Date().toISOString() }, (bug) =>
    bug.status === 'checking' ? `bug ${bug.id} is still being checked; reject it once it has a verdict` : undefined,
  );
}
