import { describe, expect, it } from 'vitest';
import { recordedImageName } from '../../../src/sandbox/image-names.js';
import { bugFingerprint } from '../../../src/bugs/fingerprint.js';
import { acceptRefusal } from '../../../src/pipeline/review.js';
import { statusOf, summariseReport } from '../../../src/store/check-summary.js';
import { duplicateRoot } from '../../../src/store/duplicates.js';
import { oneOfEach } from '../../../src/datasets/export.js';
import { countsByImage, describeCounts, filterBugs } from '../../../src/store/queries.js';
import type { BugRecord } from '../../../src/store/records.js';

const diff = (offset: number, indent: string) =>
  `diff --git a/pkg/core.py b/pkg/core.py\nindex 1..2 100644\n--- a/pkg/core.py\n+++ b/pkg/core.py\n@@ -${offset},3 +${offset},3 @@ def f():\n ctx\n-${indent}return a + b\n+${indent}return a - b\n ctx\n`;

const bug = (id: string, extra: Partial<BugRecord> = {}): BugRecord => ({
  id,
  status: 'valid',
  image: 'img:1',
  repo: 'r',
  baseCommit: 'c0',
  strategy: 'removal',
  policy: 'offline',
  model: 'offline/removal',
  order: 1,
  parentId: null,
  attemptId: null,
  runId: null,
  rollout: null,
  createdAt: `2026-01-01T00:00:0${id.slice(-1)}.000Z`,
  updatedAt: '',
  fingerprint: 'f1',
  duplicateOf: null,
  checkingBy: null,
  check: null,
  review: null,
  ...extra,
});

describe('fingerprints', () => {
  it('ignore hunk offsets, context and whitespace, but not what changes', () => {
    expect(bugFingerprint(diff(10, '    '))).toBe(bugFingerprint(diff(42, '\t')));
    expect(bugFingerprint(diff(10, '    '))).not.toBe(bugFingerprint(diff(10, '    ').replace('a - b', 'a * b')));
  });
});

describe('duplicates', () => {
  it('points a later bug with the same fingerprint on the same image and commit at the first valid one', () => {
    const bugs = [bug('b1', { status: 'invalid' }), bug('b2'), bug('b3', { status: 'duplicate', duplicateOf: 'b2' })];
    expect(duplicateRoot(bugs, bug('b4'))).toBe('b2');
    expect(duplicateRoot(bugs, bug('b4', { baseCommit: 'other' }))).toBeUndefined();
    expect(duplicateRoot(bugs, bug('b4', { fingerprint: 'f2' }))).toBeUndefined();
    // An earlier invalid bug claims nothing; the first of its kind is not its own duplicate.
    expect(duplicateRoot([bug('b1', { status: 'invalid' })], bug('b2'))).toBeUndefined();
    expect(duplicateRoot(bugs, bug('b2'))).toBeUndefined();
  });

  it('keeps one bug of each fingerprint in a dataset, even when two copies were both marked valid', () => {
    const { bugs, repeats } = oneOfEach([bug('b1'), bug('b2', { fingerprint: 'f2' }), bug('b3'), bug('b4', { image: 'other:1' })]);
    expect(bugs.map((b) => b.id)).toEqual(['b1', 'b2', 'b4']);
    expect(repeats).toEqual([{ id: 'b3', reason: expect.stringContaining('the same bug as b1') }]);
  });
});

describe('check summaries', () => {
  const checks = (verdicts: string[]) => verdicts.map((verdict, i) => ({ name: `c${i}`, verdict, reason: `reason ${i}` }));
  it('gives valid, invalid with the failed check, and cancelled', () => {
    const valid = summariseReport({ valid: true, checks: checks(Array(9).fill('pass')), FAIL_TO_PASS: ['t'], PASS_TO_PASS: ['u', 'v'] }, 'now', 'r.json');
    expect(valid).toMatchObject({ valid: true, verdicts: 'ppppppppp', failToPass: 1, passToPass: 2 });
    expect(statusOf(valid)).toBe('valid');
    const invalid = summariseReport({ valid: false, checks: checks(['pass', 'fail', 'skipped']) }, 'now', null);
    expect(invalid).toMatchObject({ failedCheck: 'c1', reason: 'reason 1', cancelled: false, verdicts: 'pfs' });
    expect(statusOf(invalid)).toBe('invalid');
    const cancelled = summariseReport({ valid: false, cancelled: true, checks: checks(['pass', 'cancelled', 'cancelled']) }, 'now', null);
    expect(statusOf(cancelled)).toBe('cancelled');
  });

  it("records as a finding a parser left unverified because a known runner's reader could not read a log", () => {
    const report = (parser: Parameters<typeof summariseReport>[0]['parser']) => summariseReport({ valid: true, checks: checks(Array(9).fill('pass')), parser }, 'now', null);
    const unread = { run: 'original', why: 'the TAP stream is not whole: test point id 2 appears multiple times' };
    expect(report({ status: 'unverified', reader: 'TAP (node --test)', unverified: [unread, { run: 'buggy', why: 'cut short' }] }).parserUnverified).toBe(
      'TAP (node --test): original: the TAP stream is not whole: test point id 2 appears multiple times; buggy: cut short',
    );
    // No reader knew the format, or every log was read: nothing to record.
    expect(report({ status: 'unverified', unverified: [{ run: 'original', why: 'no reader in bugbench knows the format of this log' }] }).parserUnverified).toBeNull();
    expect(report({ status: 'verified', reader: 'go test -v', unverified: [] }).parserUnverified).toBeNull();
  });
});

describe('accepting', () => {
  it('takes valid bugs and refuses the rest with the reason', () => {
    expect(acceptRefusal(bug('b1'))).toBeUndefined();
    const check = { valid: false, cancelled: false, failedCheck: 'bug-validity', reason: '0 passing test(s) fail', verdicts: '', at: '', dir: null, failToPass: 0, passToPass: 0 };
    expect(acceptRefusal(bug('b1', { status: 'invalid', check }))).toBe(
      'bug b1 is invalid: check bug-validity failed (0 passing test(s) fail); only valid bugs can be accepted',
    );
    expect(acceptRefusal(bug('b1', { status: 'duplicate', duplicateOf: 'b0' }))).toMatch(/duplicate of b0/);
    // Rejecting a duplicate does not make it a bug of its own.
    const validCheck = { ...check, valid: true, failedCheck: null, reason: 'all nine checks pass' };
    expect(acceptRefusal(bug('b1', { status: 'rejected', duplicateOf: 'b0', check: validCheck }))).toBe('bug b1 is a duplicate of b0; accept that one instead');
    expect(acceptRefusal(bug('b1', { status: 'rejected', check: validCheck }))).toBeUndefined();
    expect(acceptRefusal(bug('b1', { status: 'cancelled' }))).toMatch(/run `bugbench check b1` first/);
  });
});

describe('queries', () => {
  it('filter by status, image, strategy and order, and count valid bugs apart from the others', () => {
    const bugs = [bug('b1'), bug('b2', { status: 'accepted', order: 2 }), bug('b3', { status: 'invalid', strategy: 'history' }), bug('b4', { image: 'img:2' })];
    expect(filterBugs(bugs, { image: 'img:1', order: 1 }).map((b) => b.id)).toEqual(['b1', 'b3']);
    expect(filterBugs(bugs, { strategy: 'history' }).map((b) => b.id)).toEqual(['b3']);
    const counts = countsByImage(bugs);
    expect(describeCounts(counts.get('img:1')!)).toBe('2 valid (1 accepted); 1 invalid');
    expect(describeCounts(counts.get('img:2')!)).toBe('1 valid');
  });

  it('take an image named with and without its `latest` tag as one, as an image id as it is', () => {
    const bugs = [bug('b1', { image: 'bugbench/repo-x' }), bug('b2', { image: 'bugbench/repo-x:latest', status: 'accepted' }), bug('b3', { image: 'bugbench/repo-x:2' })];
    expect(filterBugs(bugs, { image: 'bugbench/repo-x:latest' }).map((b) => b.id)).toEqual(['b1', 'b2']);
    expect(filterBugs(bugs, { image: 'bugbench/repo-x' }).map((b) => b.id)).toEqual(['b1', 'b2']);
    expect(describeCounts(countsByImage(bugs).get('bugbench/repo-x:latest')!)).toBe('2 valid (1 accepted)');
    expect(recordedImageName(' bugbench/repo-x ')).toBe('bugbench/repo-x:latest');
    expect(recordedImageName('localhost:5000/team/img')).toBe('localhost:5000/team/img:latest');
    expect(recordedImageName('918e3a657245')).toBe('918e3a657245');
    expect(recordedImageName('swebench/sweb.eval.x86_64.django__django-11099@sha256:' + 'a'.repeat(64))).toMatch(/@sha256:a+$/);
  });
});
