/**
 * Drives the offline injector without a container: a repository is a map of
 * files, and each tool call is answered as the container would answer it for
 * the steps before the first trial (the listing, the reading of the files,
 * the original run's results). Later calls get the answers a test gives.
 */
import { offlineInjector, type InjectorOptions } from '../../../src/agent/offline/injector.js';
import type { Action, Observation, ScriptedAgent, ToolCall } from '../../../src/agent/offline/offline-model.js';
import { Rng } from '../../../src/agent/offline/rng.js';

export interface Drive {
  /** Every action the agent took, in order. */
  actions: Action[];
  /** How the agent ended, when it did. */
  closing?: string;
}

/** The answer to one call, or undefined for the repository's usual one. */
export type Answer = (call: ToolCall, action: Action) => string | undefined;

function usual(call: ToolCall, files: Record<string, string>, results: Record<string, string>): string {
  if (call.name !== 'bash') return 'done';
  const command = String(call.input.command);
  if (command.includes('git ls-files')) return Object.keys(files).join('\n');
  if (command.includes('base64 -w0')) {
    return Object.entries(files)
      .map(([path, text]) => `FILE ${path} ${Buffer.from(text).toString('base64')}`)
      .join('\n');
  }
  if (command.includes('original.log')) return `ok\nelapsed_ms 1200\nRESULT ${JSON.stringify(results)}`;
  return '';
}

export function injectorOptions(overrides: Partial<InjectorOptions> = {}): InjectorOptions {
  return { strategy: 'direct', rng: new Rng(11), minPassingTests: 1, minChangedFiles: 1, minFailingTests: 1, testTimeoutSec: 60, ...overrides };
}

/**
 * Runs the injector on `files` until `stop` holds for an action (or it ends).
 * `results` is the original run's results, as the helper prints them.
 */
export async function drive(
  files: Record<string, string>,
  results: Record<string, string>,
  options: { injector?: Partial<InjectorOptions>; answer?: Answer; stop?: (action: Action) => boolean } = {},
): Promise<Drive> {
  const agent: ScriptedAgent = offlineInjector(injectorOptions(options.injector));
  const actions: Action[] = [];
  let observations: Observation[] = [];
  for (let steps = 0; steps < 200; steps++) {
    const step = await agent.next(observations);
    if (step.done) return { actions, closing: step.value };
    actions.push(step.value);
    if (options.stop?.(step.value)) return { actions };
    observations = step.value.calls.map((call) => ({ output: options.answer?.(call, step.value) ?? usual(call, files, results), isError: false }));
  }
  throw new Error('the injector took 200 steps');
}
