/**
 * Supervised fine-tuning data: every successful solver trajectory of a bug
 * (rejection sampling: failed attempts never enter), as the chat messages a
 * trainer reads — system, task, the assistant's turns with their reasoning
 * text and tool calls, each tool's result — with the tools' JSON schemas.
 * The reasoning text is kept: BugPilot (5.2) found students trained without
 * it do far worse. Reasoning a server streamed apart from the answer (vLLM's
 * `reasoning_content`) goes in the assistant message's `reasoning_content`,
 * the field chat templates of reasoning models read. Each line names the
 * policy, model and server that wrote the trajectory.
 *
 * The offline solvers are scripts that bugbench hands the fix: their
 * "successful" trajectories teach nothing a model should imitate, so they are
 * left out (and counted) unless asked for.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readTrajectory } from '../agent/trajectory.js';
import type { AttemptRecord, BugRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { chatMessages, toolSchemas } from './chat.js';

export { chatMessages, toolSchemas } from './chat.js';

/** Why scripted trajectories stay out of the SFT data by default (said in the export's result). */
export const SCRIPTED_LEFT_OUT =
  'trajectories of the scripted offline solvers (offline/oracle, offline/partial, offline/noop): bugbench hands them the fix, so they are no demonstration to learn from; --include-scripted adds them';

/** A solver that is one of bugbench's scripts rather than a model. */
export function isScriptedSolver(solver: string): boolean {
  return solver.startsWith('offline/');
}

/** The solved attempts of a bug. */
export function solvedAttempts(store: Store, bug: BugRecord): AttemptRecord[] {
  return store.all('attempts').filter((a) => a.bugId === bug.id && a.solved === true);
}

/** The solved attempts an SFT export takes, and how many scripted ones it leaves out. */
export function sftAttempts(store: Store, bug: BugRecord, includeScripted: boolean): { taken: AttemptRecord[]; scripted: number } {
  const solved = solvedAttempts(store, bug);
  const taken = includeScripted ? solved : solved.filter((a) => !isScriptedSolver(a.solver));
  return { taken, scripted: solved.length - taken.length };
}

export function sftLines(store: Store, bug: BugRecord, attempts: AttemptRecord[]) {
  return attempts.flatMap((attempt) => {
    const path = store.abs(join('runs', attempt.runId, `${attempt.id}.jsonl`));
    if (!existsSync(path)) return [];
    const trajectory = readTrajectory(path);
    if (!trajectory.messages || trajectory.system === undefined) return [];
    return [
      {
        bug_id: bug.id,
        attempt_id: attempt.id,
        solver: attempt.solver,
        // Who wrote the trajectory (older attempts name only the model: the run has the policy).
        model: { policy: attempt.policy ?? store.get('runs', attempt.runId)?.policy ?? null, name: attempt.solver, base_url: attempt.baseUrl ?? store.get('runs', attempt.runId)?.baseUrl ?? null },
        statement: attempt.statement,
        messages: chatMessages(trajectory.system, trajectory.messages),
        tools: toolSchemas(trajectory.tools ?? []),
      },
    ];
  });
}
