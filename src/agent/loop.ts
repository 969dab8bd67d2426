/**
 * The agent loop, small on purpose: ask the model for a turn, run the tools it
 * called, hand back their results, until it submits or a limit is reached.
 * Every step is an event on the rollout's stream.
 */
import { errorMessage } from '../errors.js';
import { Budget, BudgetExhaustedError, SpendGate } from './budget.js';
import type { EventStream, FinishReason } from './events.js';
import type { ContentBlock, Message, ToolResultBlock, ToolUseBlock } from './messages.js';
import { NO_BUG_STOP, type Model } from './model.js';
import type { Tools } from './tools.js';

export interface AgentRun {
  model: Model;
  tools: Tools;
  system: string;
  task: string;
  maxSteps: number;
  stream: EventStream;
  /** This rollout's cap: no request is sent once it is reached. */
  budget?: Budget;
  /** The whole run's cap, shared by its rollouts. */
  runBudget?: Budget;
  signal?: AbortSignal;
}

export interface AgentResult {
  reason: FinishReason;
  steps: number;
  costUsd: number;
  messages: Message[];
  submitted?: string[];
  detail?: string;
}

const NUDGE = 'Your last turn called no tool. Continue with the bash, editor or submit tool; call submit when you are done.';

export async function runAgent(run: AgentRun): Promise<AgentResult> {
  const { model, tools, stream } = run;
  const budget = run.budget ?? new Budget();
  const messages: Message[] = [{ role: 'user', content: run.task }];
  const started = performance.now();
  let step = 0;
  let submitted: string[] | undefined;
  let idleTurns = 0;
  let tokens = 0;
  let estimatedTokens = false;

  const finish = (reason: FinishReason, detail?: string): AgentResult => {
    const spent = { tokens, ...(estimatedTokens ? { estimatedTokens } : {}) };
    stream.emit({ type: 'finished', reason, steps: step, costUsd: budget.spentUsd, durationMs: Math.round(performance.now() - started), detail, ...spent });
    return { reason, steps: step, costUsd: budget.spentUsd, messages, submitted, detail };
  };

  while (step < run.maxSteps) {
    if (run.signal?.aborted) return finish('cancelled');
    if (budget.exhausted) return finish('budget', `the rollout spent $${budget.spentUsd.toFixed(4)} of its $${budget.limitUsd} budget`);
    if (run.runBudget?.exhausted) return finish('budget', `the run spent its $${run.runBudget.limitUsd} budget`);
    step++;
    stream.emit({ type: 'step-started', step });

    let content: ContentBlock[];
    let stopReason: string;
    let gate: SpendGate | undefined;
    try {
      const request = { system: run.system, messages, tools: tools.definitions };
      // The budget rule (budget.ts): each request of the turn is admitted only if its worst case fits.
      gate = await SpendGate.open(model, request, [budget, run.runBudget]);
      const turn = await model.query({ ...request, gate }, {
        onText: (text) => stream.emit({ type: 'text-delta', step, text }),
        onReasoning: (text) => stream.emit({ type: 'text-delta', step, text, reasoning: true }),
        onToolStart: (callId, name) => stream.emit({ type: 'tool-call-started', step, callId, name }),
        onToolInputDelta: (callId, partialJson) => stream.emit({ type: 'tool-input-delta', step, callId, partialJson }),
        onRetry: (attempt, reason, delayMs) => stream.emit({ type: 'retry', step, attempt, reason, delayMs }),
      }, run.signal);
      const cost = model.costOf(turn.usage);
      if (gate) gate.settle(cost);
      else {
        budget.add(cost);
        run.runBudget?.add(cost);
      }
      tokens += turn.usage.inputTokens + turn.usage.outputTokens;
      estimatedTokens ||= turn.usage.estimated === true;
      stream.emit({ type: 'step-usage', step, usage: turn.usage, costUsd: cost, totalCostUsd: budget.spentUsd });
      content = turn.content;
      stopReason = turn.stopReason;
    } catch (error) {
      gate?.release();
      if (run.signal?.aborted) return finish('cancelled');
      if (error instanceof BudgetExhaustedError) return finish('budget', error.message);
      stream.emit({ type: 'error', message: errorMessage(error) });
      return finish('error', errorMessage(error));
    }
    // The API refuses an assistant turn without content; keep the turn with a placeholder.
    messages.push({ role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: '(no reply)' }] });

    const calls = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    const said = () => content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join(' ').trim();
    if (calls.length === 0 && stopReason === NO_BUG_STOP) return finish('no-bug', said() || 'the agent found no bug');
    if (calls.length === 0) {
      if (idleTurns++ >= 1) {
        // The offline policy is a scripted agent, not a model: say which one stopped.
        const who = run.model.name.startsWith('offline/') ? `the offline agent (${run.model.name})` : 'the model';
        const words = said();
        return finish('error', `${who} stopped without submitting${words ? `: ${words}` : ''}`);
      }
      messages.push({ role: 'user', content: NUDGE });
      continue;
    }
    idleTurns = 0;
    // Every tool_use gets its tool_result in the next user message, even after a submission.
    const results: ToolResultBlock[] = [];
    for (const call of calls) {
      if (run.signal?.aborted || submitted) {
        results.push({ type: 'tool_result', tool_use_id: call.id, content: 'not run: the rollout ended', is_error: true });
        continue;
      }
      const callStarted = performance.now();
      const result = await tools.execute(call.name, call.input, run.signal);
      stream.emit({
        type: 'tool-call-finished',
        step,
        callId: call.id,
        name: call.name,
        input: call.input,
        output: result.output,
        isError: result.isError,
        exitCode: result.exitCode,
        durationMs: Math.round(performance.now() - callStarted),
      });
      results.push({ type: 'tool_result', tool_use_id: call.id, content: result.output, ...(result.isError ? { is_error: true } : {}) });
      if (result.submitted) {
        submitted = result.submitted;
        stream.emit({ type: 'submitted', step, files: result.submitted });
      }
    }
    messages.push({ role: 'user', content: results });
    if (submitted) return finish('submitted');
    if (run.signal?.aborted) return finish('cancelled');
  }
  return finish('max-steps', `stopped after ${run.maxSteps} steps without a submission`);
}
