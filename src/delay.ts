/**
 * Waits that guard a race (`Promise.race([ended, delay(2000)])`): the timer
 * does not keep the process alive, so a guard that lost its race does not
 * hold bugbench open for its full length after the work is done.
 */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
