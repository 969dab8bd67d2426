/**
 * A recorded rollout as a mini-swe-agent trajectory file (`*.traj.json`), so
 * its inspector (`mini-extra inspector`) and the tools that read its runs can
 * open bugbench's rollouts. The shape is mini-swe-agent's v2 format,
 * `trajectory_format: "mini-swe-agent-1.1"`, as its docs/usage/output_files.md
 * documents and src/minisweagent/agents/default.py (`serialize`) writes it:
 *
 *   info      exit_status, submission, model_stats {instance_cost, api_calls}, config
 *   messages  OpenAI-style chat messages, each with an `extra` of metadata
 *             (assistant: actions, cost, timestamp; tool: returncode, timestamp),
 *             the last one `{role: "exit", extra: {exit_status, submission}}`
 *
 * The messages are the `sft` export's (chat.ts) with `extra` added. Pure.
 */
import type { FinishReason, RolloutEvent } from '../../agent/events.js';
import type { Trajectory } from '../../agent/trajectory.js';
import { chatMessagesWithSource, type ChatMessage } from '../chat.js';

export const MINI_SWE_TRAJECTORY_FORMAT = 'mini-swe-agent-1.1';

/** What the store knows of a rollout beside its recorded events. */
export interface RolloutFacts {
  rolloutId: string;
  runId: string;
  role: 'injector' | 'solver';
  model: string;
  /** ISO time the rollout began (timestamps are counted from it). */
  startedAt: string | null;
  bugId: string | null;
  /** What it handed in: a solver's patch, an injector's bug_inject.diff ('' when nothing). */
  submission: string;
  /** A solver attempt's verdict. */
  attempt?: { solved: boolean | null; reward: number | null; failing: string[] };
  /** The store's status when no `finished` event was recorded (a crash). */
  status: string;
}

export type TrajectoryMessage = (ChatMessage | { role: 'exit'; content: string }) & { extra?: Record<string, unknown> };

/** mini-swe-agent's names for how a run ended. */
const EXIT_STATUS: Record<FinishReason, string> = {
  submitted: 'Submitted',
  'no-bug': 'NoBugFound',
  'max-steps': 'LimitsExceeded',
  budget: 'LimitsExceeded',
  error: 'Error',
  cancelled: 'Cancelled',
};

/** The events of the rollout's last try (a retried rollout appends a new try to the same file). */
export function lastTry(events: RolloutEvent[]): RolloutEvent[] {
  const start = events.map((e) => e.type).lastIndexOf('rollout-started');
  return start < 0 ? events : events.slice(start);
}

function actionOf(call: { id: string; function: { name: string; arguments: string } }) {
  let input: unknown;
  try {
    input = JSON.parse(call.function.arguments);
  } catch {
    input = call.function.arguments;
  }
  const command = call.function.name === 'bash' && input && typeof input === 'object' ? (input as { command?: unknown }).command : undefined;
  return { tool: call.function.name, input, tool_call_id: call.id, ...(typeof command === 'string' ? { command } : {}) };
}

export function miniSweTrajectory(trajectory: Trajectory, facts: RolloutFacts) {
  const events = lastTry(trajectory.events);
  const startMs = facts.startedAt ? Date.parse(facts.startedAt) : 0;
  const at = (t: number) => (startMs + t) / 1000;
  const usage = new Map(events.flatMap((e) => (e.type === 'step-usage' ? [[e.step, e] as const] : [])));
  const calls = new Map(events.flatMap((e) => (e.type === 'tool-call-finished' ? [[e.callId, e] as const] : [])));
  const finished = events.find((e): e is Extract<RolloutEvent, { type: 'finished' }> => e.type === 'finished');
  const exitStatus = finished ? EXIT_STATUS[finished.reason] : facts.status === 'interrupted' ? 'Interrupted' : 'Unfinished';

  let step = 0;
  const messages: TrajectoryMessage[] = chatMessagesWithSource(trajectory.system ?? '', trajectory.messages ?? []).map(({ chat }) => {
    if (chat.role === 'assistant') {
      step += 1;
      const turn = usage.get(step);
      return { ...chat, extra: { actions: (chat.tool_calls ?? []).map(actionOf), cost: turn?.costUsd ?? 0, usage: turn?.usage ?? null, timestamp: turn ? at(turn.t) : null, step } };
    }
    if (chat.role === 'tool') {
      const call = calls.get(chat.tool_call_id);
      return { ...chat, extra: { returncode: call?.exitCode ?? null, is_error: call?.isError ?? null, duration_ms: call?.durationMs ?? null, timestamp: call ? at(call.t) : null } };
    }
    return { ...chat };
  });
  messages.push({ role: 'exit', content: exitStatus, extra: { exit_status: exitStatus, submission: facts.submission, ...(finished?.detail ? { detail: finished.detail } : {}) } });

  const apiCalls = usage.size;
  const cost = finished?.costUsd ?? [...usage.values()].reduce((sum, e) => sum + e.costUsd, 0);
  return {
    info: {
      model_stats: { instance_cost: cost, api_calls: apiCalls },
      config: {
        agent: { step_limit: null, tools: (trajectory.tools ?? []).map((t) => t.name) },
        agent_type: `bugbench.${facts.role}`,
        model: { model_name: facts.model },
        model_type: facts.model.startsWith('offline/') ? 'bugbench.offline' : 'bugbench.model',
      },
      exit_status: exitStatus,
      submission: facts.submission,
      bugbench: {
        rollout_id: facts.rolloutId,
        run_id: facts.runId,
        role: facts.role,
        bug_id: facts.bugId,
        finish_reason: finished?.reason ?? null,
        steps: finished?.steps ?? step,
        duration_ms: finished?.durationMs ?? null,
        ...(facts.attempt ? { solved: facts.attempt.solved, reward: facts.attempt.reward, failing: facts.attempt.failing } : {}),
      },
    },
    messages,
    trajectory_format: MINI_SWE_TRAJECTORY_FORMAT,
  };
}

export type MiniSweTrajectory = ReturnType<typeof miniSweTrajectory>;

/** The chat messages of a trajectory file without mini-swe-agent's additions (`extra`, the exit message): the `sft` export's messages. */
export function chatOf(messages: TrajectoryMessage[]): ChatMessage[] {
  return messages.filter((m) => m.role !== 'exit').map(({ extra: _extra, ...chat }) => chat as ChatMessage);
}
