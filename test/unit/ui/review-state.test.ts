import { describe, expect, it } from 'vitest';
import type { BugRecord } from '../../../src/store/records.js';
import { bugRow, detailLines, diffLines } from '../../../src/ui/review-lines.js';
import { initialReview, reduceReview, shownBug } from '../../../src/ui/review-state.js';

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

  it('shows the neighbour of a bug that left the list, and selecting it shows it from the top', () => {
    const [a, b, c] = [bug('a'), bug('b'), bug('c')];
    let state = reduceReview(initialReview, { type: 'select', delta: 1, bugs: [a!, b!, c!] });
    state = reduceReview({ ...state, focus: 'detail', view: 'diff' }, { type: 'scroll', delta: 9, max: 20 });
    expect(shownBug([a!, b!, c!], state)).toEqual({ bug: b, index: 1 });
    // b is accepted out of a list of valid bugs: c takes its place, not a.
    expect(shownBug([a!, c!], state)).toEqual({ bug: c, index: 1 });
    state = reduceReview(state, { type: 'follow', id: 'c', index: 1 });
    expect(state).toMatchObject({ selectedId: 'c', selectedIndex: 1, scroll: 0, view: 'diff', focus: 'detail' });
    // The last one's neighbour is the one above it; with none left, none.
    expect(shownBug([a!], state)).toEqual({ bug: a, index: 0 });
    expect(shownBug([], state).bug).toBeUndefined();
  });

  it('keeps the scroll of a bug that only moved in the list, and its new place', () => {
    const state = reduceReview({ ...initialReview, selectedId: 'b', selectedIndex: 1, scroll: 4 }, { type: 'follow', id: 'b', index: 2 });
    expect(state).toMatchObject({ selectedId: 'b', selectedIndex: 2, scroll: 4 });
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
    const details = { record, artifactDir: '/w/bugs/b', trajectory: null, meta: null, testFiles: ['tests/test_x.py'], diffs: { bugInject: '', testWeaken: '', predPatch: null }, checks: null, FAIL_TO_PASS: [], PASS_TO_PASS: [], flaky: [], reviews: [], checkHistory: [], report: null, attempts: [] };
    const text = detailLines(details, 'summary', 0).map((l) => l.text).join('\n');
    expect(text).toMatch(/✓✓✓✓✓✗···  failed bug-validity/);
    expect(text).toMatch(/0 passing test\(s\) fail/);
  });

  it("show a parser a known runner's reader could not check, on a valid bug too", () => {
    const check = { valid: true, cancelled: false, failedCheck: null, reason: 'all 9 checks pass', verdicts: 'ppppppppp', at: '', dir: null, failToPass: 1, passToPass: 4 };
    const details = (parserUnverified?: string) => ({ record: bug('b', { check: { ...check, parserUnverified } }), artifactDir: '/w/bugs/b', trajectory: null, meta: null, testFiles: [], diffs: { bugInject: '', testWeaken: '', predPatch: null }, checks: null, FAIL_TO_PASS: [], PASS_TO_PASS: [], flaky: [], reviews: [], checkHistory: [], report: null, attempts: [] });
    const lines = detailLines(details('TAP (node --test): original: the TAP stream is not whole'), 'summary', 0);
    expect(lines.find((l) => l.text.startsWith('parser'))).toEqual({ text: 'parser    UNVERIFIED — TAP (node --test): original: the TAP stream is not whole', color: 'yellow' });
    expect(detailLines(details(), 'summary', 0).some((l) => l.text.startsWith('parser'))).toBe(false);
  });
});
