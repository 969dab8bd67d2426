/**
 * useReducer whose latest state can be read at once, even before React has
 * rendered it: keys typed faster than a frame (a paste, tmux send-keys, a
 * quick hand) must each see the state the previous key left, not the state of
 * the last render.
 */
import { useCallback, useRef, useState } from 'react';

export function useLatestReducer<S, E>(reducer: (state: S, event: E) => S, initial: S): [S, (event: E) => void, () => S] {
  const ref = useRef(initial);
  const [, setTick] = useState(0);
  const dispatch = useCallback(
    (event: E) => {
      const next = reducer(ref.current, event);
      if (next === ref.current) return;
      ref.current = next;
      setTick((tick) => tick + 1);
    },
    [reducer],
  );
  const latest = useCallback(() => ref.current, []);
  return [ref.current, dispatch, latest];
}
