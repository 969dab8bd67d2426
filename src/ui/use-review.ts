/**
 * The Review screen's hook: its view state, the bugs it lists (from the
 * store, kept fresh while other processes write), the selected bug's details,
 * and what its keys do — accept and reject go to the core.
 */
import type { Key } from 'ink';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../errors.js';
import type { BugDetails } from '../pipeline/bug-details.js';
import type { WorkbenchCore } from '../pipeline/workbench-core.js';
import type { BugRecord } from '../store/records.js';
import { detailLines } from './review-lines.js';
import { initialReview, reduceReview, shownBug, type ReviewState } from './review-state.js';
import { useLatestReducer } from './use-latest-reducer.js';

/** How often the screen looks for what other processes wrote. */
const REFRESH_MS = 1000;
/** Newest first, as a reviewer wants them. */
function newestFirst(bugs: BugRecord[]): BugRecord[] {
  return [...bugs].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The bugs the filters let through (newest first), and the one shown as selected with its place. */
function listed(core: WorkbenchCore | undefined, state: ReviewState): { bugs: BugRecord[]; selected: BugRecord | undefined; index: number } {
  const bugs = core ? newestFirst(core.bugs(state.filter)) : [];
  const { bug, index } = shownBug(bugs, state);
  return { bugs, selected: bug, index };
}

export interface ReviewModel {
  state: ReviewState;
  /** Every bug in the store (for the filters' choices). */
  all: BugRecord[];
  bugs: BugRecord[];
  selected: BugRecord | undefined;
  details: BugDetails | undefined;
  /** The open log's lines, if one is open. */
  log: string[] | null;
  openBug: (id: string) => void;
  /** Handles a key of the screen; the detail pane's height is needed to scroll by pages. */
  onKey: (input: string, key: Key, pageRows: number) => void;
  /** True while a reason is being typed: every key is text then. */
  capturing: () => boolean;
  /** The latest view state (keys may come faster than frames). */
  latest: () => ReviewState;
}

export function useReview(core: WorkbenchCore | undefined): ReviewModel {
  const [state, dispatch, latest] = useLatestReducer(reduceReview, initialReview);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!core) return;
    const off = core.subscribe(() => setVersion((v) => v + 1));
    const timer = setInterval(() => core.refresh(), REFRESH_MS);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [core]);

  const all = useMemo(() => (core ? newestFirst(core.bugs()) : []), [core, version]);
  const { bugs, selected, index } = useMemo(() => listed(core, state), [core, version, state.filter, state.selectedId, state.selectedIndex]);
  // The selection is held by id (a bug made later does not take it over) and its place: the bug shown is the one selected.
  useEffect(() => {
    if (selected) dispatch({ type: 'follow', id: selected.id, index });
  }, [selected, index, dispatch]);
  const details = useMemo(() => (core && selected ? core.bugDetails(selected.id) : undefined), [core, selected?.id, selected?.updatedAt]);
  const log = useMemo(() => (core && state.log ? core.logTail(state.log.path) : null), [core, state.log]);

  const openBug = useCallback((id: string) => dispatch({ type: 'select-id', id }), [dispatch]);

  const onKey = (input: string, key: Key, pageRows: number) => {
    if (!core) return;
    // The state the previous key left, even if no frame showed it yet; a key acts on the bug shown.
    const shown = listed(core, latest());
    if (shown.selected) dispatch({ type: 'follow', id: shown.selected.id, index: shown.index });
    const state = latest();
    const { bugs, selected } = shown;
    const details = selected ? core.bugDetails(selected.id) : undefined;
    const log = state.log ? core.logTail(state.log.path) : null;
    if (state.rejecting !== null) {
      if (key.escape) dispatch({ type: 'reject-cancel' });
      else if (key.backspace || key.delete) dispatch({ type: 'reject-erase' });
      else if (key.return) {
        if (!selected) return;
        if (state.rejecting.trim() === '') return dispatch({ type: 'message', text: 'type the reason for the rejection first (esc leaves without rejecting)', error: true });
        try {
          core.reject(selected.id, state.rejecting);
          dispatch({ type: 'message', text: `${selected.id} rejected`, error: false });
        } catch (error) {
          dispatch({ type: 'message', text: errorMessage(error), error: true });
        }
      } else if (input && !key.ctrl && !key.meta) dispatch({ type: 'reject-type', text: input });
      return;
    }
    const lines = log ? log.length + 1 : details ? detailLines(details, state.view, state.checkCursor).length : 0;
    const maxScroll = Math.max(0, lines - pageRows);
    if (key.pageDown) return dispatch({ type: 'scroll', delta: pageRows, max: maxScroll });
    if (key.pageUp) return dispatch({ type: 'scroll', delta: -pageRows, max: maxScroll });
    if (input === 'g' || key.home) return dispatch({ type: 'scroll', delta: -Infinity, max: maxScroll });
    if (input === 'G' || key.end) return dispatch({ type: 'scroll', delta: Infinity, max: maxScroll });
    if (state.log) {
      if (key.escape || key.leftArrow) dispatch({ type: 'close-log' });
      else if (key.upArrow || input === 'k') dispatch({ type: 'scroll', delta: -1, max: maxScroll });
      else if (key.downArrow || input === 'j') dispatch({ type: 'scroll', delta: 1, max: maxScroll });
      return;
    }
    if (input === 'f') return dispatch({ type: 'cycle-filter', field: 'status', bugs: all });
    if (input === 'i') return dispatch({ type: 'cycle-filter', field: 'image', bugs: all });
    if (input === 't') return dispatch({ type: 'cycle-filter', field: 'strategy', bugs: all });
    if (input === 'o') return dispatch({ type: 'cycle-filter', field: 'order', bugs: all });
    if (input === 'v') return dispatch({ type: 'cycle-view', delta: 1 });
    if (input === 'V') return dispatch({ type: 'cycle-view', delta: -1 });
    if (input === 'a' && selected) {
      try {
        core.accept(selected.id);
        dispatch({ type: 'message', text: `${selected.id} accepted`, error: false });
      } catch (error) {
        dispatch({ type: 'message', text: errorMessage(error), error: true });
      }
      return;
    }
    if (input === 'r' && selected) return dispatch({ type: 'reject-start' });
    if (state.focus === 'list') {
      if (key.upArrow || input === 'k') dispatch({ type: 'select', delta: -1, bugs });
      else if (key.downArrow || input === 'j') dispatch({ type: 'select', delta: 1, bugs });
      else if (key.return || key.rightArrow) dispatch({ type: 'focus', pane: 'detail' });
      return;
    }
    // The detail pane has the focus.
    if (key.escape || key.leftArrow) return dispatch({ type: 'focus', pane: 'list' });
    if (state.view === 'checks' && details?.checks) {
      const count = details.checks.length;
      if (key.upArrow || input === 'k') return dispatch({ type: 'check-cursor', delta: -1, count });
      if (key.downArrow || input === 'j') return dispatch({ type: 'check-cursor', delta: 1, count });
      if (key.return || input === 'l') {
        const check = details.checks[state.checkCursor];
        const run = check?.runs[0];
        if (check && run) dispatch({ type: 'open-log', title: `${check.name}: ${run.label}`, path: run.logPath });
        else if (check) dispatch({ type: 'message', text: `${check.name} ran no tests, so it has no log`, error: false });
      }
      return;
    }
    if (key.upArrow || input === 'k') dispatch({ type: 'scroll', delta: -1, max: maxScroll });
    else if (key.downArrow || input === 'j') dispatch({ type: 'scroll', delta: 1, max: maxScroll });
  };

  const capturing = useCallback(() => latest().rejecting !== null, [latest]);
  return { state, all, bugs, selected, details, log, openBug, onKey, capturing, latest };
}
