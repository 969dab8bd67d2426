/**
 * The Rollouts screen's view state, as a pure reducer: which run is shown,
 * which rollout has the focus, how far its transcript is scrolled (rows up
 * from the end; 0 follows new output), whether long outputs are unfolded, and
 * a replay under way.
 */
import type { RolloutEvent } from '../agent/events.js';
import { applyRolloutEvent, emptyRollout, type RolloutView } from './run-state.js';

export interface RolloutsState {
  /** The run shown: a run id, or null for the newest (the live run first). */
  runId: string | null;
  focus: number;
  scroll: number;
  unfold: boolean;
  replay: { runId: string; tag: string; view: RolloutView; speed: number; done: boolean } | null;
}

export const initialRollouts: RolloutsState = { runId: null, focus: 0, scroll: 0, unfold: false, replay: null };

export type RolloutsEvent =
  /** Show a run by id, or (null) the live run, else the newest. */
  | { type: 'show-run'; runId: string | null }
  | { type: 'focus'; delta: number; count: number }
  | { type: 'scroll'; delta: number; max: number }
  /** Long outputs folded or unfolded; `scroll` keeps the same place in view. */
  | { type: 'toggle-fold'; scroll: number }
  | { type: 'replay-start'; runId: string; tag: string; speed: number }
  | { type: 'replay-event'; event: RolloutEvent }
  | { type: 'replay-done' }
  | { type: 'replay-stop' };

export function reduceRollouts(state: RolloutsState, event: RolloutsEvent): RolloutsState {
  switch (event.type) {
    case 'show-run':
      return { ...initialRollouts, runId: event.runId, unfold: state.unfold };
    case 'focus': {
      const focus = Math.min(Math.max(0, event.count - 1), Math.max(0, state.focus + event.delta));
      return focus === state.focus ? state : { ...state, focus, scroll: 0, replay: null };
    }
    case 'scroll':
      return { ...state, scroll: Math.min(Math.max(0, event.max), Math.max(0, state.scroll + event.delta)) };
    case 'toggle-fold':
      return { ...state, unfold: !state.unfold, scroll: event.scroll };
    case 'replay-start':
      return { ...state, scroll: 0, replay: { runId: event.runId, tag: event.tag, view: emptyRollout(event.tag), speed: event.speed, done: false } };
    case 'replay-event':
      return state.replay ? { ...state, replay: { ...state.replay, view: applyRolloutEvent(state.replay.view, event.event) } } : state;
    case 'replay-done':
      return state.replay ? { ...state, replay: { ...state.replay, done: true } } : state;
    case 'replay-stop':
      return { ...state, replay: null };
  }
}
