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

/**
 * Measures how long each delivery takes — the reducer, React's render and commit,
 * and Ink's frame when it draws at once; `npm run bench:tui` reads it. Off unless set.
 */
export const deliveryProbe: { record?: (ms: number) => void; busy: boolean } = { busy: false };

export function batcher<T>(deliver: (items: T[]) => void, ms = 40): Batcher<T> {
  let items: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (items.length === 0) return;
    const out = items;
    items = [];
    if (!deliveryProbe.record) return deliver(out);
    // React renders the update in a microtask queued by the delivery; this one runs after it.
    const started = performance.now();
    deliveryProbe.busy = true;
    deliver(out);
    queueMicrotask(() => {
      deliveryProbe.busy = false;
      deliveryProbe.record?.(performance.now() - started);
    });
  };
  return {
    push(item) {
      items.push(item);
      timer ??= setTimeout(flush, ms);
    },
    flush,
  };
}
