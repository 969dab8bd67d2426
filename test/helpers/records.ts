/** Store records for tests that need a workspace with some history in it: plain data, defaults overridden per test. */
import type { BugRecord, CheckSummary } from '../../src/store/records.js';

/** A valid check summary (nine passes). */
export const VALID_CHECK: CheckSummary = { valid: true, cancelled: false, failedCheck: null, reason: 'all 9 checks pass', verdicts: 'ppppppppp', at: '2026-01-01T00:00:00.000Z', dir: null, failToPass: 1, passToPass: 9 };

/** A bug record: valid on `img:1` at commit `c0` unless `fields` say otherwise. */
export function bugRecord(id: string, fields: Partial<BugRecord> = {}): BugRecord {
  return {
    id,
    status: 'valid',
    image: 'img:1',
    repo: 'img',
    baseCommit: 'c0',
    strategy: 'removal',
    policy: 'offline',
    model: 'offline/removal',
    order: 1,
    parentId: null,
    attemptId: null,
    runId: null,
    rollout: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    fingerprint: 'f',
    duplicateOf: null,
    checkingBy: null,
    check: VALID_CHECK,
    review: null,
    ...fields,
  };
}
