/** The commands of `bugbench`, by name. */
import type { CommandModule } from './command.js';

/**
 * Every command by name, each loaded only when it runs so start-up stays
 * short; the module owns everything else about it (commands/command.ts), and
 * a test checks each name is its module's.
 */
export const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  tui: async () => (await import('./tui.js')).command,
  doctor: async () => (await import('./doctor.js')).command,
  images: async () => (await import('./images.js')).command,
  inject: async () => (await import('./inject.js')).command,
  runs: async () => (await import('./runs.js')).command,
  import: async () => (await import('./import.js')).command,
  bugs: async () => (await import('./bugs.js')).command,
  show: async () => (await import('./show.js')).command,
  accept: async () => (await import('./review.js')).acceptModule,
  reject: async () => (await import('./review.js')).rejectModule,
  export: async () => (await import('./export.js')).command,
  'verify-export': async () => (await import('./verify-export.js')).command,
  check: async () => (await import('./check.js')).command,
  solve: async () => (await import('./solve.js')).command,
  'higher-order': async () => (await import('./higher-order.js')).command,
  analyse: async () => (await import('./analyse.js')).command,
  eval: async () => (await import('./eval.js')).command,
  queue: async () => (await import('./queue.js')).command,
  cancel: async () => (await import('./cancel.js')).command,
  'cluster-task': async () => (await import('./cluster-task.js')).command,
  replay: async () => (await import('./replay.js')).command,
};

/** Every command's module, in the order of the list. */
export function commandModules(): Promise<CommandModule[]> {
  return Promise.all(Object.values(COMMANDS).map((load) => load()));
}
