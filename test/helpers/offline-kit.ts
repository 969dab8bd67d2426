/**
 * A Python repository in a sandbox, and the offline Python kit prepared in it
 * as the agent loop would prepare it: each tool call carried out there.
 */
import { expect } from 'vitest';
import type { Action, Observation, ToolCall } from '../../src/agent/offline/offline-model.js';
import type { Ask, Kit } from '../../src/agent/offline/kit.js';
import { pythonKit } from '../../src/agent/offline/python-kit.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { sandboxWithRepo } from './sandbox.js';

export interface PreparedKit {
  sandbox: Sandbox;
  kit: Kit;
  /** What the kit's calls answered while it prepared, in order. */
  said: string[];
}

/** Carries out an offline agent's tool call in the sandbox, as the agent loop would. */
async function carryOut(sandbox: Sandbox, call: ToolCall): Promise<Observation> {
  const input = call.input as { command?: string; path?: string; file_text?: string };
  if (call.name === 'bash') {
    const result = await sandbox.run(input.command!);
    return { output: `${result.stdout}${result.stderr}`, isError: result.exitCode !== 0 };
  }
  await sandbox.writeFile(input.path!, input.file_text!);
  return { output: `Wrote ${input.path}`, isError: false };
}

/** A sandbox whose repository holds `files` (committed), and the Python kit prepared there. */
export async function preparedPythonKit(runId: string, files: { path: string; content: string }[]): Promise<PreparedKit> {
  const sandbox = await sandboxWithRepo(runId);
  await sandbox.writeFiles([...files, { path: '.gitignore', content: '__pycache__/\n' }]);
  await sandbox.run('git -c user.name=t -c user.email=t@example.com add -A && git -c user.name=t -c user.email=t@example.com commit -qm tests');
  const made = pythonKit((await sandbox.run('git ls-files')).stdout.trim().split('\n'));
  if (typeof made === 'string') throw new Error(made);
  const said: string[] = [];
  const ask: Ask = async function* (_thought, ...calls) {
    const observations: Observation[] = [];
    for (const call of calls) observations.push(await carryOut(sandbox, call));
    said.push(...observations.map((o) => o.output));
    return observations;
  };
  // prepare is a generator of the agent's steps; this one answers them itself and yields nothing.
  const steps = made.prepare(ask) as AsyncGenerator<Action, string | undefined, Observation[]>;
  expect(await steps.next()).toMatchObject({ done: true, value: undefined });
  return { sandbox, kit: made, said };
}
