/**
 * The Review screen's view state, as a pure reducer: which bugs are listed
 * (filters), which one is selected (by id, so the list may change under it),
 * what the detail pane shows and how far it is scrolled, and the reason being
 * typed for a rejection.
 */
import { BUG_STATUSES, type BugFilter } from '../pipeline/workbench-core.js';
import type { BugRecord, BugStatus } from '../store/records.js';

export const DETAIL_VIEWS = ['summary', 'checks', 'diff', 'tests'] as const;
export type DetailView = (typeof DETAIL_VIEWS)[number];

export interface ReviewState {
  filter: BugFilter;
  selectedId: string | null;
  /**
   * Where the selected bug is listed. When it leaves the list (accepted out of
   * a list filtered to valid bugs, changed by another process), the bug that
   * takes its place is selected — its neighbour — never the first row.
   */
  selectedIndex: number;
  focus: 'list' | 'detail';
  view: DetailView;
  scroll: number;
  /** The check whose log `l` opens, in the checks view. */
  checkCursor: number;
  /** The log being read, if one is open. */
  log: { title: string; path: string } | null;
  /** The reason being typed for a rejection. */
  rejecting: string | null;
  /** What the last action said (accepted, refused, …). */
  message: { text: string; error: boolean } | null;
}

export const initialReview: ReviewState = {
  filter: {},
  selectedId: null,
  selectedIndex: 0,
  focus: 'list',
  view: 'summary',
  scroll: 0,
  checkCursor: 0,
  log: null,
  rejecting: null,
  message: null,
};

export type FilterField = 'status' | 'image' | 'strategy' | 'order';

export type ReviewEvent =
  | { type: 'select'; delta: number; bugs: BugRecord[] }
  | { type: 'select-id'; id: string }
  /** The bug shown and its place: another than the one selected (it left the list, none was selected yet) is selected, from the top. */
  | { type: 'follow'; id: string; index: number }
  | { type: 'cycle-filter'; field: FilterField; bugs: BugRecord[] }
  | { type: 'focus'; pane: 'list' | 'detail' }
  | { type: 'cycle-view'; delta: number }
  | { type: 'scroll'; delta: number; max: number }
  | { type: 'check-cursor'; delta: number; count: number }
  | { type: 'open-log'; title: string; path: string }
  | { type: 'close-log' }
  | { type: 'reject-start' }
  | { type: 'reject-type'; text: string }
  | { type: 'reject-erase' }
  | { type: 'reject-cancel' }
  | { type: 'message'; text: string; error: boolean };

/** The values a filter can cycle through: "all", then those the bugs have. */
export function filterChoices(field: FilterField, bugs: BugRecord[]): (string | number | undefined)[] {
  if (field === 'status') return [undefined, ...BUG_STATUSES];
  const values = new Set(bugs.map((b) => (field === 'order' ? b.order : b[field])));
  return [undefined, ...[...values].sort()];
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function reduceReview(state: ReviewState, event: ReviewEvent): ReviewState {
  switch (event.type) {
    case 'select': {
      if (event.bugs.length === 0) return state;
      const at = Math.max(0, event.bugs.findIndex((b) => b.id === state.selectedId));
      const index = clamp(at + event.delta, 0, event.bugs.length - 1);
      const next = event.bugs[index]!;
      return next.id === state.selectedId ? state : { ...state, selectedId: next.id, selectedIndex: index, scroll: 0, checkCursor: 0, log: null, message: null };
    }
    case 'follow':
      // The same bug moved in the list (a newer one came in above it): only its place is kept.
      if (event.id === state.selectedId) return event.index === state.selectedIndex ? state : { ...state, selectedIndex: event.index };
      return { ...state, selectedId: event.id, selectedIndex: event.index, scroll: 0, checkCursor: 0, log: null };
    case 'select-id':
      return { ...initialReview, filter: {}, selectedId: event.id, view: 'summary' };
    case 'cycle-filter': {
      const choices = filterChoices(event.field, event.bugs);
      const current = state.filter[event.field];
      const next = choices[(choices.indexOf(current) + 1) % choices.length];
      return { ...state, filter: { ...state.filter, [event.field]: next as BugStatus & number }, selectedIndex: 0, scroll: 0, message: null };
    }
    case 'focus':
      return { ...state, focus: event.pane };
    case 'cycle-view': {
      const i = DETAIL_VIEWS.indexOf(state.view);
      return { ...state, view: DETAIL_VIEWS[(i + event.delta + DETAIL_VIEWS.length) % DETAIL_VIEWS.length]!, scroll: 0, log: null };
    }
    case 'scroll':
      return { ...state, scroll: clamp(state.scroll + event.delta, 0, Math.max(0, event.max)) };
    case 'check-cursor':
      return { ...state, checkCursor: clamp(state.checkCursor + event.delta, 0, Math.max(0, event.count - 1)) };
    case 'open-log':
      return { ...state, log: { title: event.title, path: event.path }, scroll: 0 };
    case 'close-log':
      return { ...state, log: null, scroll: 0 };
    case 'reject-start':
      return { ...state, rejecting: '', message: null };
    case 'reject-type':
      return state.rejecting === null ? state : { ...state, rejecting: state.rejecting + event.text };
    case 'reject-erase':
      return state.rejecting === null ? state : { ...state, rejecting: state.rejecting.slice(0, -1) };
    case 'reject-cancel':
      return { ...state, rejecting: null };
    case 'message':
      return { ...state, message: { text: event.text, error: event.error }, rejecting: null };
  }
}

/** The bug shown as selected: the selected one while it is listed, else the one now in its place (the last, if the list got shorter). */
export function shownBug(bugs: BugRecord[], state: Pick<ReviewState, 'selectedId' | 'selectedIndex'>): { bug: BugRecord | undefined; index: number } {
  const at = bugs.findIndex((b) => b.id === state.selectedId);
  const index = at >= 0 ? at : Math.min(state.selectedIndex, bugs.length - 1);
  return { bug: bugs[index], index: Math.max(0, index) };
}
