/**
 * Ctrl-C during long work: the first one asks the work to stop cleanly (its
 * containers are removed), a second one quits at once; orphans left then are
 * reaped at the next start.
 */
export function cancelOnInterrupt(what: string): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\nbugbench: stopping ${what} and removing its containers (Ctrl-C again to quit at once)\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
