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
  | { type: 'pin'; id: string }
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
  | { type: 'message'; text: string; error: boolean }
  /** `id` was accepted or rejected: `before` and `after` are the bugs listed before and after it. */
  | { type: 'acted'; id: string; text: string; before: BugRecord[]; after: BugRecord[] };

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
      const next = event.bugs[clamp(at + event.delta, 0, event.bugs.length - 1)]!;
      return next.id === state.selectedId ? state : { ...state, selectedId: next.id, scroll: 0, checkCursor: 0, log: null, message: null };
    }
    case 'pin':
      return state.selectedId === null ? { ...state, selectedId: event.id } : state;
    case 'select-id':
      return { ...initialReview, filter: {}, selectedId: event.id, view: 'summary' };
    case 'cycle-filter': {
      const choices = filterChoices(event.field, event.bugs);
      const current = state.filter[event.field];
      const next = choices[(choices.indexOf(current) + 1) % choices.length];
      return { ...state, filter: { ...state.filter, [event.field]: next as BugStatus & number }, scroll: 0, message: null };
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
    case 'acted': {
      const message = { text: event.text, error: false };
      if (event.after.some((b) => b.id === event.id)) return { ...state, message, rejecting: null };
      // It left the list (the filter no longer lets it through): its neighbour takes its place, shown from the top —
      // never the first row, whose bug the reviewer has not looked at.
      const next = neighbourOf(event.id, event.before, event.after);
      return { ...state, selectedId: next?.id ?? null, scroll: 0, checkCursor: 0, log: null, message, rejecting: null };
    }
  }
}

/** The bug listed after `id` that is still listed, else the one before it. */
function neighbourOf(id: string, before: BugRecord[], after: BugRecord[]): BugRecord | undefined {
  const listed = new Set(after.map((b) => b.id));
  const at = before.findIndex((b) => b.id === id);
  if (at < 0) return after[0];
  return before.slice(at + 1).find((b) => listed.has(b.id)) ?? before.slice(0, at).reverse().find((b) => listed.has(b.id));
}
