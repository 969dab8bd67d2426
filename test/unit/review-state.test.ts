import { describe, expect, it } from 'vitest';
import type { BugRecord } from '../../src/store/records.js';
import { bugRow, detailLines, diffLines } from '../../src/ui/review-lines.js';
import { initialReview, reduceReview } from '../../src/ui/review-state.js';

const bug = (id: string, extra: Partial<BugRecord> = {}): BugRecord => ({
  id,
  status: 'valid',
  image: 'img:1',
  repo: 'r',
  baseCommit: 'c'.repeat(40),
  strategy: 'removal',
  policy: 'offline',
  model: 'offline/removal',
  order: 1,
  parentId: null,
  attemptId: null,
  runId: null,
  rollout: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '',
  fingerprint: 'f',
  duplicateOf: null,
  checkingBy: null,
  check: { valid: true, cancelled: false, failedCheck: null, reason: '', verdicts: 'ppppppppp', at: '', dir: 'checks/x', failToPass: 6, passToPass: 77 },
  review: null,
  ...extra,
});

describe('the review view state', () => {
  const bugs = [bug('a'), bug('b', { status: 'invalid', strategy: 'history' }), bug('c', { image: 'img:2' })];

  it('selects by id and keeps the selection inside the list', () => {
    let state = reduceReview(initialReview, { type: 'select', delta: 1, bugs });
    expect(state.selectedId).toBe('b');
    state = reduceReview(state, { type: 'select', delta: 10, bugs });
    expect(state.selectedId).toBe('c');
    state = reduceReview(state, { type: 'select', delta: -10, bugs });
    expect(state.selectedId).toBe('a');
  });

  it('cycles each filter through "all" and the values the bugs have', () => {
    let state = reduceReview(initialReview, { type: 'cycle-filter', field: 'image', bugs });
    expect(state.filter.image).toBe('img:1');
    state = reduceReview(state, { type: 'cycle-filter', field: 'image', bugs });
    expect(state.filter.image).toBe('img:2');
    state = reduceReview(state, { type: 'cycle-filter', field: 'image', bugs });
    expect(state.filter.image).toBeUndefined();
    state = reduceReview(state, { type: 'cycle-filter', field: 'status', bugs });
    expect(state.filter.status).toBe('checking');
  });

  it('types a rejection reason, and a message ends it', () => {
    let state = reduceReview(initialReview, { type: 'reject-start' });
    for (const char of 'too easy!') state = reduceReview(state, { type: 'reject-type', text: char });
    state = reduceReview(state, { type: 'reject-erase' });
    expect(state.rejecting).toBe('too easy');
    state = reduceReview(state, { type: 'message', text: 'rejected', error: false });
    expect(state).toMatchObject({ rejecting: null, message: { text: 'rejected' } });
  });

  it('after an accepted bug leaves the list, selects its neighbour and shows it from the top', () => {
    const valid = [bug('a'), bug('b'), bug('c')];
    let state = reduceReview(initialReview, { type: 'select', delta: 1, bugs: valid });
    state = reduceReview({ ...state, focus: 'detail', view: 'diff' }, { type: 'scroll', delta: 9, max: 20 });
    state = reduceReview(state, { type: 'acted', id: 'b', text: 'b accepted', before: valid, after: [valid[0]!, valid[2]!] });
    expect(state).toMatchObject({ selectedId: 'c', scroll: 0, view: 'diff', focus: 'detail', message: { text: 'b accepted', error: false } });
    // The last one's neighbour is the one above it; with none left, nothing is selected.
    state = reduceReview(state, { type: 'acted', id: 'c', text: 'c accepted', before: [valid[0]!, valid[2]!], after: [valid[0]!] });
    expect(state.selectedId).toBe('a');
    expect(reduceReview(state, { type: 'acted', id: 'a', text: 'a rejected', before: [valid[0]!], after: [] }).selectedId).toBeNull();
  });

  it('keeps the selection and its scroll on a bug that stays listed after an action', () => {
    const all = [bug('a'), bug('b')];
    const state = reduceReview({ ...initialReview, selectedId: 'b', scroll: 4 }, { type: 'acted', id: 'b', text: 'b accepted', before: all, after: all });
    expect(state).toMatchObject({ selectedId: 'b', scroll: 4, message: { text: 'b accepted' } });
  });

  it('scrolls within the lines there are', () => {
    let state = reduceReview(initialReview, { type: 'scroll', delta: 30, max: 12 });
    expect(state.scroll).toBe(12);
    state = reduceReview(state, { type: 'scroll', delta: -Infinity, max: 12 });
    expect(state.scroll).toBe(0);
  });
});

describe('review lines', () => {
  it('fit a bug in one row of any width', () => {
    const row = bugRow(bug('knotcfg-removal-12345678'), 80);
    expect(row.length).toBeLessThanOrEqual(80);
    expect(row).toMatch(/^knotcfg-removal-12345678 +valid +removal +o1 6 F2P/);
    expect(bugRow(bug('a-very-long-bug-identifier-that-does-not-fit-anywhere-at-all'), 60)).toHaveLength(60);
  });

  it('colour a diff', () => {
    const lines = diffLines('bug_inject.diff', 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n');
    expect(lines.map((l) => l.color ?? (l.bold ? 'bold' : ''))).toEqual(['bold', 'bold', 'bold', 'bold', 'cyan', 'red', 'green']);
  });

  it('show the failed check and its reason in the summary', () => {
    const record = bug('b', { status: 'invalid', check: { valid: false, cancelled: false, failedCheck: 'bug-validity', reason: '0 passing test(s) fail', verdicts: 'pppppfsss', at: '', dir: null, failToPass: 0, passToPass: 0 } });
    const details = { record, artifactDir: '/w/bugs/b', trajectory: null, meta: null, testFiles: ['tests/test_x.py'], diffs: { bugInject: '', testWeaken: '', predPatch: null }, checks: null, FAIL_TO_PASS: [], PASS_TO_PASS: [], reviews: [], checkHistory: [], report: null, attempts: [] };
    const text = detailLines(details, 'summary', 0).map((l) => l.text).join('\n');
    expect(text).toMatch(/✓✓✓✓✓✗···  failed bug-validity/);
    expect(text).toMatch(/0 passing test\(s\) fail/);
  });
});
