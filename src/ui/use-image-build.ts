/**
 * Building a repo image from the Images screen: `b` asks for the path of a git
 * repository, enter builds it with its progress shown line by line, and the
 * new image is selected when it is ready; an error stays on screen.
 */
import type { Key } from 'ink';
import { errorMessage } from '../errors.js';
import type { WorkbenchCore } from '../pipeline/workbench-core.js';
import { useLatestReducer } from './use-latest-reducer.js';
import type { WorkSet } from './work.js';

/** Progress lines kept on screen (the latest). */
export const BUILD_LOG_LINES = 6;

export interface ImageBuildState {
  /** The path being typed, or null when not asking. */
  typing: string | null;
  /** The folder being built. */
  building: string | null;
  log: string[];
  error: string | null;
  /** The tag of the image built last. */
  built: string | null;
  /** When that build replaced an image bugs were checked on: where the old one is kept, and for how many bugs. */
  kept: { tag: string; bugs: number } | null;
}

export type ImageBuildEvent =
  | { type: 'ask' }
  | { type: 'text'; text: string }
  | { type: 'erase' }
  | { type: 'close' }
  /** Another piece of work on the screen took the panel: what the last build said is put away. */
  | { type: 'dismiss' }
  | { type: 'start'; dir: string }
  | { type: 'progress'; message: string }
  | { type: 'failed'; message: string }
  | { type: 'built'; tag: string; kept?: { tag: string; bugs: number } };

export const initialImageBuild: ImageBuildState = { typing: null, building: null, log: [], error: null, built: null, kept: null };

export function reduceImageBuild(state: ImageBuildState, event: ImageBuildEvent): ImageBuildState {
  switch (event.type) {
    case 'ask':
      return state.building ? state : { ...state, typing: '', error: null };
    case 'text':
      return state.typing === null ? state : { ...state, typing: state.typing + event.text };
    case 'erase':
      return state.typing === null ? state : { ...state, typing: state.typing.slice(0, -1) };
    case 'close':
      return { ...state, typing: null };
    case 'dismiss':
      return state.error === null && state.built === null && state.typing === null ? state : { ...state, typing: null, error: null, built: null, kept: null };
    case 'start':
      return { ...state, typing: null, building: event.dir, log: [], error: null, built: null, kept: null };
    case 'progress':
      return { ...state, log: [...state.log, event.message].slice(-BUILD_LOG_LINES) };
    case 'failed':
      return { ...state, building: null, error: event.message };
    case 'built':
      return { ...state, building: null, built: event.tag, kept: event.kept ?? null };
  }
}

export interface ImageBuildModel {
  state: ImageBuildState;
  capturing: () => boolean;
  /** A key on the Images screen; true when it was the build's. */
  onKey: (input: string, key: Key) => boolean;
  /** Puts away what the last build said (another piece of work takes the panel). */
  dismiss: () => void;
}

export function useImageBuild(core: WorkbenchCore, work: WorkSet, onBuilt: (tag: string) => Promise<void>): ImageBuildModel {
  const [state, dispatch, latest] = useLatestReducer(reduceImageBuild, initialImageBuild);

  const start = (dir: string) => {
    dispatch({ type: 'start', dir });
    const done = core
      .buildImage(dir, (message) => dispatch({ type: 'progress', message: message.trim() }))
      .then(async (image) => {
        // The list is read again first, so that the new image is there when the build says it is done.
        await onBuilt(image.tag).catch(() => undefined);
        dispatch({ type: 'built', tag: image.tag, kept: image.kept });
      })
      .catch((error: unknown) => dispatch({ type: 'failed', message: errorMessage(error) }));
    // A build cannot be stopped half-way; quitting waits for it.
    work.add('image-build', new AbortController(), done);
  };

  const onKey = (input: string, key: Key): boolean => {
    const current = latest();
    if (current.typing === null) {
      if (input !== 'b') return false;
      dispatch({ type: 'ask' });
      return true;
    }
    if (key.escape) dispatch({ type: 'close' });
    else if (key.return) {
      const dir = current.typing.trim();
      if (dir) start(dir);
      else dispatch({ type: 'close' });
    } else if (key.backspace || key.delete) dispatch({ type: 'erase' });
    else if (input && !key.ctrl && !key.meta) dispatch({ type: 'text', text: input });
    return true;
  };

  return { state, capturing: () => latest().typing !== null, onKey, dismiss: () => dispatch({ type: 'dismiss' }) };
}
