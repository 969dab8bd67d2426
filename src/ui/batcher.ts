/**
 * Events from the core arrive faster than a terminal can show them (a
 * rollout streams text a few characters at a time). They are gathered and
 * handed on together at most every `ms` milliseconds, so a flood costs one
 * re-render per batch, not one per event.
 */
export interface Batcher<T> {
  push(item: T): void;
  /** Hands on what is waiting now. */
  flush(): void;
}

export function batcher<T>(deliver: (items: T[]) => void, ms = 40): Batcher<T> {
  let items: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (items.length === 0) return;
    const out = items;
    items = [];
    deliver(out);
  };
  return {
    push(item) {
      items.push(item);
      timer ??= setTimeout(flush, ms);
    },
    flush,
  };
}
