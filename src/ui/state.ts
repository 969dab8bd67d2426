/**
 * The workbench's view state as a pure reducer: every change comes from a core
 * event or a key, so it is tested without Ink.
 */
import type { DoctorReport } from '../pipeline/doctor.js';
import { STRATEGIES, type InjectStrategy, type PolicyName } from '../pipeline/inject.js';
import type { RepoImage } from '../sandbox/repo-image.js';
import { newRunView, reduceRun, type RunEvent, type RunView } from './run-state.js';

export type Screen = 'setup' | 'images' | 'inject-setup' | 'run';

export interface InjectForm {
  strategy: InjectStrategy;
  n: number;
  concurrency: number;
  policy: PolicyName;
}

export interface ViewState {
  screen: Screen;
  /** The last lines of setup progress (the live area stays short). */
  setupLog: string[];
  setupError?: string;
  report?: DoctorReport;
  images: RepoImage[];
  cursor: number;
  form: InjectForm;
  run?: RunView;
}

export type ViewEvent =
  | { type: 'diagnosed'; report: DoctorReport }
  | { type: 'setup-progress'; message: string }
  | { type: 'setup-failed'; message: string }
  | { type: 'images-loaded'; images: RepoImage[] }
  | { type: 'cursor'; delta: number }
  | { type: 'open-inject' }
  | { type: 'form'; field: 'strategy' | 'n' | 'concurrency'; delta: number }
  | { type: 'start-run' }
  | { type: 'back' }
  | RunEvent;

export const SETUP_LOG_LINES = 12;
export const MAX_BUGS = 20;

export const initialState: ViewState = {
  screen: 'setup',
  setupLog: [],
  images: [],
  cursor: 0,
  form: { strategy: 'removal', n: 3, concurrency: 2, policy: 'offline' },
};

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function reduce(state: ViewState, event: ViewEvent): ViewState {
  switch (event.type) {
    case 'diagnosed':
      return { ...state, report: event.report, form: { ...state.form, policy: event.report.anthropicKey ? 'anthropic' : 'offline' } };
    case 'setup-progress':
      return { ...state, setupLog: [...state.setupLog, event.message].slice(-SETUP_LOG_LINES) };
    case 'setup-failed':
      return { ...state, setupError: event.message };
    case 'images-loaded':
      return {
        ...state,
        screen: state.screen === 'setup' ? 'images' : state.screen,
        images: event.images,
        cursor: Math.min(state.cursor, Math.max(0, event.images.length - 1)),
      };
    case 'cursor': {
      const last = Math.max(0, state.images.length - 1);
      return { ...state, cursor: clamp(state.cursor + event.delta, 0, last) };
    }
    case 'open-inject':
      return state.images[state.cursor] ? { ...state, screen: 'inject-setup' } : state;
    case 'form': {
      const form = { ...state.form };
      if (event.field === 'strategy') {
        const i = STRATEGIES.indexOf(form.strategy);
        form.strategy = STRATEGIES[(i + event.delta + STRATEGIES.length) % STRATEGIES.length]!;
      } else if (event.field === 'n') form.n = clamp(form.n + event.delta, 1, MAX_BUGS);
      else form.concurrency = clamp(form.concurrency + event.delta, 1, 8);
      return { ...state, form };
    }
    case 'start-run': {
      const image = state.images[state.cursor];
      if (!image) return state;
      return { ...state, screen: 'run', run: newRunView(image.tag, state.form.strategy, state.form.policy, state.form.n) };
    }
    case 'back':
      if (state.screen === 'inject-setup') return { ...state, screen: 'images' };
      if (state.screen === 'run' && state.run?.done) return { ...state, screen: 'images' };
      return state;
    default:
      return state.run ? { ...state, run: reduceRun(state.run, event) } : state;
  }
}
