/**
 * What every command that works on the workspace does first, and the
 * workbench too: containers that dead bugbench processes left on any
 * configured engine are removed, the store is opened, and runs and checks
 * whose process died are marked interrupted or cancelled.
 */
import type { ContainerEngine } from '../sandbox/port.js';
import { reapOrphansEverywhere } from '../sandbox/orphans.js';
import { recoverAbandoned } from '../store/recover.js';
import { openStore, type Store } from '../store/store.js';

export interface StartupOptions {
  /** Reap on this engine only (default: every configured engine). */
  engine?: ContainerEngine;
  /** Skip reaping (commands that start no containers). */
  reap?: boolean;
}

export async function openWorkspace(options: StartupOptions = {}): Promise<Store> {
  if (options.reap !== false) {
    if (options.engine) await options.engine.reapOrphans();
    else await reapOrphansEverywhere();
  }
  return recoveredStore();
}

/** The store with abandoned work marked, without touching any engine. */
export function recoveredStore(): Store {
  const store = openStore();
  recoverAbandoned(store);
  return store;
}

/** Reaps orphans on every configured engine that answers, saying nothing of engines that do not (the workbench starts one if need be). */
export async function reapQuietly(): Promise<void> {
  await reapOrphansEverywhere().catch(() => undefined);
}
