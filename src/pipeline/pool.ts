/** Bounded concurrency: work on the items in order, at most `concurrency` at once. */

/** Runs `work` on every item, `concurrency` at a time; once `signal` aborts, no new item starts. */
export async function forEachConcurrently<T>(run: { items: readonly T[]; concurrency: number; signal?: AbortSignal }, work: (item: T) => Promise<void>): Promise<void> {
  const { items, concurrency, signal } = run;
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      if (signal?.aborted) return;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, worker));
}
