/**
 * The workbench's view state as a pure reducer: every change comes from a core
 * event or a key, so it is tested without Ink. Screens with state of their own
 * (Review) keep it in their hook; this holds the shell (which screen, help,
 * quitting), set-up, images, the injection form and the live run.
 */
import { imagesLabel } from '../pipeline/corpus.js';
import type { DoctorReport } from '../pipeline/doctor.js';
import type { EngineStatus } from '../sandbox/engines.js';
import type { RepoImage } from '../sandbox/repo-images.js';
import { formSettings, newRunForm, reduceForm, type FormKey, type RunForm } from './run-form.js';
import { newRunView, reduceRun, type RunEvent, type RunView } from './run-state.js';
import { SCREENS, type ScreenId } from './screens.js';

export interface ViewState {
  /** Set-up (engine, images) is done and the screens can be used. */
  ready: boolean;
  screen: ScreenId;
  /** Where `esc` goes back to. */
  trail: ScreenId[];
  help: boolean;
  /** `q` was pressed while work runs: a second `q` quits. */
  confirmQuit: boolean;
  /** The last lines of setup progress (the live area stays short). */
  setupLog: string[];
  setupError?: string;
  report?: DoctorReport;
  images: RepoImage[];
  /** The configured Docker engines, their slots and repo images (doctor's, refreshed with the images). */
  engines: EngineStatus[];
  cursor: number;
  /** Images marked with space for one run over all of them (a corpus, as `inject --images`), in the order marked. */
  marked: string[];
  form: RunForm;
  run?: RunView;
}

export type ViewEvent =
  /** `seed` becomes the form's seed (the workbench draws one per session). */
  | { type: 'diagnosed'; report: DoctorReport; seed?: number }
  | { type: 'setup-progress'; message: string }
  | { type: 'setup-failed'; message: string }
  | { type: 'images-loaded'; images: RepoImage[]; engines?: EngineStatus[] }
  | { type: 'cursor'; delta: number }
  /** Marks the image under the cursor for the next run, or unmarks it. */
  | { type: 'mark' }
  | { type: 'select-image'; tag: string }
  | { type: 'go'; screen: ScreenId }
  | { type: 'cycle-screen'; delta: number }
  | { type: 'back' }
  | { type: 'toggle-help' }
  | { type: 'ask-quit' }
  | { type: 'stay' }
  | { type: 'form'; key: FormKey }
  /** A run starts with the form as it is; the form's seed becomes `nextSeed` for the run after it. */
  | { type: 'start-run'; nextSeed?: number }
  /** A stored run goes on: its view, as resumedRunView made it, becomes the live one. */
  | { type: 'resume-run'; run: RunView }
  | RunEvent;

export const SETUP_LOG_LINES = 12;

/** The images the next run spreads its rollouts over: those marked, else the one under the cursor. */
export function runImages(state: Pick<ViewState, 'images' | 'cursor' | 'marked'>): string[] {
  if (state.marked.length > 0) return state.marked;
  const image = state.images[state.cursor];
  return image ? [image.tag] : [];
}

export const initialState: ViewState = {
  ready: false,
  screen: 'images',
  trail: [],
  help: false,
  confirmQuit: false,
  setupLog: [],
  images: [],
  engines: [],
  cursor: 0,
  marked: [],
  form: newRunForm(),
};

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function go(state: ViewState, screen: ScreenId): ViewState {
  if (!state.ready || screen === state.screen) return { ...state, help: false };
  return { ...state, screen, trail: [...state.trail, state.screen].slice(-20), help: false, confirmQuit: false };
}

export function reduce(state: ViewState, event: ViewEvent): ViewState {
  switch (event.type) {
    case 'diagnosed':
      return {
        ...state,
        report: event.report,
        engines: event.report.engines,
        form: {
          ...state.form,
          policy: event.report.policies?.[0] ?? (event.report.anthropicKey ? 'anthropic' : 'offline'),
          policies: event.report.policies ?? (event.report.anthropicKey ? ['anthropic', 'offline'] : ['offline']),
          values: event.seed === undefined ? state.form.values : { ...state.form.values, seed: String(event.seed) },
        },
      };
    case 'setup-progress':
      return { ...state, setupLog: [...state.setupLog, event.message].slice(-SETUP_LOG_LINES) };
    case 'setup-failed':
      return { ...state, setupError: event.message };
    case 'images-loaded': {
      // The cursor stays on the image it was on when another one joins or leaves the list (a build elsewhere on the
      // engine): `enter` must start a run on the image the user chose, not on the one now in its row.
      const focused = state.images[state.cursor]?.tag;
      const still = focused === undefined ? -1 : event.images.findIndex((i) => i.tag === focused);
      return {
        ...state,
        ready: true,
        images: event.images,
        engines: event.engines ?? state.engines,
        cursor: still >= 0 ? still : Math.min(state.cursor, Math.max(0, event.images.length - 1)),
        marked: state.marked.filter((tag) => event.images.some((i) => i.tag === tag)),
      };
    }
    case 'mark': {
      const tag = state.images[state.cursor]?.tag;
      if (tag === undefined) return state;
      return { ...state, marked: state.marked.includes(tag) ? state.marked.filter((t) => t !== tag) : [...state.marked, tag] };
    }
    case 'cursor':
      return { ...state, cursor: clamp(state.cursor + event.delta, 0, Math.max(0, state.images.length - 1)) };
    case 'select-image': {
      const at = state.images.findIndex((i) => i.tag === event.tag);
      return at >= 0 ? { ...state, cursor: at } : state;
    }
    case 'go':
      return go(state, event.screen);
    case 'cycle-screen': {
      const i = SCREENS.findIndex((s) => s.id === state.screen);
      return go(state, SCREENS[(i + event.delta + SCREENS.length) % SCREENS.length]!.id);
    }
    case 'back': {
      if (state.help) return { ...state, help: false };
      const previous = state.trail.at(-1);
      return previous ? { ...state, screen: previous, trail: state.trail.slice(0, -1) } : state;
    }
    case 'toggle-help':
      return { ...state, help: !state.help };
    case 'ask-quit':
      return { ...state, confirmQuit: true };
    case 'stay':
      return { ...state, confirmQuit: false };
    case 'form':
      return { ...state, form: reduceForm(state.form, event.key) };
    case 'start-run': {
      const images = runImages(state);
      const settings = formSettings(state.form);
      if (images.length === 0 || !settings) return state;
      const form = event.nextSeed === undefined ? state.form : { ...state.form, values: { ...state.form.values, seed: String(event.nextSeed) } };
      return { ...go(state, 'rollouts'), form, run: newRunView(imagesLabel({ image: images[0]!, images }), settings.strategy, settings.policy, settings.n) };
    }
    case 'resume-run':
      return { ...go(state, 'rollouts'), run: event.run };
    default:
      return state.run ? { ...state, run: reduceRun(state.run, event) } : state;
  }
}
