/**
 * The workbench's view state as a pure reducer: every change comes from a core
 * event or a key, so it is tested without Ink.
 */
import type { DoctorReport } from '../pipeline/doctor.js';
import type { RepoImage } from '../sandbox/repo-image.js';

export type Screen = 'setup' | 'images';

export interface ViewState {
  screen: Screen;
  /** The last lines of setup progress (the live area stays short). */
  setupLog: string[];
  setupError?: string;
  report?: DoctorReport;
  images: RepoImage[];
  cursor: number;
}

export type ViewEvent =
  | { type: 'diagnosed'; report: DoctorReport }
  | { type: 'setup-progress'; message: string }
  | { type: 'setup-failed'; message: string }
  | { type: 'images-loaded'; images: RepoImage[] }
  | { type: 'cursor'; delta: number };

export const SETUP_LOG_LINES = 12;

export const initialState: ViewState = { screen: 'setup', setupLog: [], images: [], cursor: 0 };

export function reduce(state: ViewState, event: ViewEvent): ViewState {
  switch (event.type) {
    case 'diagnosed':
      return { ...state, report: event.report };
    case 'setup-progress':
      return { ...state, setupLog: [...state.setupLog, event.message].slice(-SETUP_LOG_LINES) };
    case 'setup-failed':
      return { ...state, setupError: event.message };
    case 'images-loaded':
      return {
        ...state,
        screen: 'images',
        images: event.images,
        cursor: Math.min(state.cursor, Math.max(0, event.images.length - 1)),
      };
    case 'cursor': {
      const last = Math.max(0, state.images.length - 1);
      return { ...state, cursor: Math.min(last, Math.max(0, state.cursor + event.delta)) };
    }
  }
}
