/**
 * Adopting an image from the Images screen: `a` asks for the name of an image
 * bugbench did not build (a SWE-bench instance image, one's own), enter adopts
 * it as it is with its progress shown line by line, and the image is selected
 * once it is listed. A refusal (no such image, no git work tree in it) stays
 * on screen whole, and nothing is recorded.
 */
import type { Key } from 'ink';
import { BugbenchError, errorMessage } from '../errors.js';
import type { WorkbenchCore } from '../pipeline/workbench-core.js';
import { clip, wrap } from './line-fit.js';
import { useLatestReducer } from './use-latest-reducer.js';
import type { WorkSet } from './work.js';

/** Progress lines kept on screen (the latest). */
export const ADOPT_LOG_LINES = 6;

export interface ImageAdoptState {
  /** The name being typed, or null when not asking. */
  typing: string | null;
  /** The image being adopted. */
  adopting: string | null;
  log: string[];
  error: string | null;
  /** What to do about a refusal the screen cannot take (a root or user to name: the CLI's flags). */
  hint: string | null;
  /** The image adopted last: the name it is listed under and where its repository is. */
  adopted: { tag: string; root: string } | null;
}

export type ImageAdoptEvent =
  | { type: 'ask' }
  | { type: 'text'; text: string }
  | { type: 'erase' }
  | { type: 'close' }
  /** Another piece of work on the screen took the panel: what the last adoption said is put away. */
  | { type: 'dismiss' }
  | { type: 'start'; name: string }
  | { type: 'progress'; message: string }
  | { type: 'failed'; message: string; hint?: string }
  | { type: 'adopted'; tag: string; root: string };

export const initialImageAdopt: ImageAdoptState = { typing: null, adopting: null, log: [], error: null, hint: null, adopted: null };

export function reduceImageAdopt(state: ImageAdoptState, event: ImageAdoptEvent): ImageAdoptState {
  switch (event.type) {
    case 'ask':
      return state.adopting ? state : { ...state, typing: '', error: null, hint: null, adopted: null };
    case 'text':
      return state.typing === null ? state : { ...state, typing: state.typing + event.text };
    case 'erase':
      return state.typing === null ? state : { ...state, typing: state.typing.slice(0, -1) };
    case 'close':
      return state.typing === null ? state : { ...state, typing: null };
    case 'dismiss':
      return state.error === null && state.adopted === null && state.typing === null ? state : { ...state, typing: null, error: null, hint: null, adopted: null };
    case 'start':
      return { ...state, typing: null, adopting: event.name, log: [], error: null, hint: null, adopted: null };
    case 'progress':
      return { ...state, log: [...state.log, event.message].slice(-ADOPT_LOG_LINES) };
    case 'failed':
      return { ...state, adopting: null, error: event.message, hint: event.hint ?? null };
    case 'adopted':
      return { ...state, adopting: null, adopted: { tag: event.tag, root: event.root } };
  }
}

/** One row of the adoption panel: its text (already fitted to the columns) and how it is shown. */
export interface AdoptLine {
  text: string;
  tone: 'field' | 'working' | 'log' | 'error' | 'hint' | 'done';
}

/**
 * The panel's rows at `columns`: the field, the progress, the refusal or the
 * result. Messages are wrapped whole, never cut, so the screen counts exactly
 * the rows they take.
 */
export function adoptPanelLines(state: ImageAdoptState, columns: number): AdoptLine[] {
  const width = Math.max(20, columns);
  const wrapped = (text: string, tone: AdoptLine['tone']) => wrap(text, width, '  ').map((line) => ({ text: line, tone }));
  if (state.typing !== null) return [{ text: state.typing, tone: 'field' }];
  if (state.adopting) return [...wrapped(`adopting ${state.adopting}…`, 'working'), ...state.log.map((line) => ({ text: clip(line, width), tone: 'log' as const }))];
  if (state.error) return [...wrapped(state.error, 'error'), ...(state.hint ? wrapped(state.hint, 'hint') : [])];
  if (state.adopted) return wrapped(`adopted ${state.adopted.tag} (repository at ${state.adopted.root}); it is selected`, 'done');
  return [];
}

/**
 * What to do about a refusal only a flag of `bugbench images add` can answer:
 * the image was found but bugbench could not adopt it as it is (no work tree
 * where it looked, a user it lacks); the field takes a name only.
 */
export function refusalHint(name: string, error: unknown): { hint?: string } {
  if (!(error instanceof BugbenchError) || error.code !== 'BB_IMAGE_ADOPTION') return {};
  return { hint: `to name its repository's root or the user to run as, from a shell: bugbench images add ${name} --root PATH --user U` };
}

export interface ImageAdoptModel {
  state: ImageAdoptState;
  capturing: () => boolean;
  /** A key on the Images screen; true when it was the adoption's. */
  onKey: (input: string, key: Key) => boolean;
  /** Puts away what the last adoption said (another piece of work takes the panel). */
  dismiss: () => void;
}

/** `onAdopted` reads the list again and selects the image. */
export function useImageAdopt(core: WorkbenchCore, work: WorkSet, onAdopted: (tag: string) => Promise<void>): ImageAdoptModel {
  const [state, dispatch, latest] = useLatestReducer(reduceImageAdopt, initialImageAdopt);

  const start = (name: string) => {
    dispatch({ type: 'start', name });
    const done = core
      .adoptImage(name, (message) => dispatch({ type: 'progress', message: message.trim() }))
      .then(async (image) => {
        // The list is read again first, so that the image is there to select when the panel says it is.
        await onAdopted(image.tag).catch(() => undefined);
        dispatch({ type: 'adopted', tag: image.tag, root: image.root });
      })
      .catch((error: unknown) => dispatch({ type: 'failed', message: errorMessage(error), ...refusalHint(name, error) }));
    // Adopting cannot be stopped half-way (its snapshot is being made); quitting waits for it.
    work.add('image-adopt', new AbortController(), done);
  };

  const onKey = (input: string, key: Key): boolean => {
    const current = latest();
    if (current.typing === null) {
      if (input !== 'a') return false;
      dispatch({ type: 'ask' });
      return true;
    }
    if (key.escape) dispatch({ type: 'close' });
    else if (key.return) {
      const name = current.typing.trim();
      if (name) start(name);
      else dispatch({ type: 'close' });
    } else if (key.backspace || key.delete) dispatch({ type: 'erase' });
    else if (input && !key.ctrl && !key.meta) dispatch({ type: 'text', text: input });
    return true;
  };

  return { state, capturing: () => latest().typing !== null, onKey, dismiss: () => dispatch({ type: 'dismiss' }) };
}
