import { describe, expect, it } from 'vitest';
import { Budget } from '../../../src/agent/budget.js';
import { EventStream, type RolloutEvent } from '../../../src/agent/events.js';
import { runAgent } from '../../../src/agent/loop.js';
import type { Model, ModelTurn } from '../../../src/agent/model.js';
import { OfflineModel, type ScriptedAgent } from '../../../src/agent/offline/offline-model.js';
import type { Tools, ToolResult } from '../../../src/agent/tools.js';

/** Tools that answer from memory: the loop's logic, without a container. */
class MemoryTools implements Tools {
  calls: { name: string; input: unknown }[] = [];
  definitions = [
    { name: 'bash', description: 'run', input_schema: { type: 'object' } },
    { name: 'submit', description: 'submit', input_schema: { type: 'object' } },
  ];
  async execute(name: string, input: unknown): Promise<ToolResult> {
    this.calls.push({ name, input });
    if (name === 'submit') return { output: 'Submitted', isError: false, submitted: ['a.diff'] };
    if (name === 'bash') return { output: `ran ${(input as { command: string }).command}\n[exit code 0]`, isError: false, exitCode: 0 };
    return { output: `no tool ${name}`, isError: true };
  }
}

function collect(stream: EventStream): RolloutEvent[] {
  const events: RolloutEvent[] = [];
  stream.subscribe((e) => events.push(e));
  return events;
}

async function* script(): ScriptedAgent {
  const first = yield { thought: 'Looking around.', calls: [{ name: 'bash', input: { command: 'ls' } }] };
  const second = yield { thought: `Saw: ${first[0]!.output.split('\n')[0]}`, calls: [{ name: 'nope', input: {} }, { name: 'submit', input: { x: 1 } }] };
  return `done (${second.length} results)`;
}

describe('the agent loop', () => {
  it('ends an injector that found nothing as "no bug", with its reason, not as an error', async () => {
    async function* findsNothing(): ScriptedAgent {
      yield { thought: 'Trying a change.', calls: [{ name: 'bash', input: { command: 'make trial' } }] };
      return 'After 16 tries I have changes in 0 file(s), fewer than the 1 needed, so I stop here.';
    }
    const stream = new EventStream();
    const events = collect(stream);
    const run = (model: OfflineModel) => runAgent({ model, tools: new MemoryTools(), system: 's', task: 't', maxSteps: 10, stream });
    const result = await run(new OfflineModel('offline/removal', findsNothing(), { closing: 'no-bug' }));
    expect(result).toMatchObject({ reason: 'no-bug', steps: 2, detail: 'After 16 tries I have changes in 0 file(s), fewer than the 1 needed, so I stop here.' });
    expect(events.at(-1)).toMatchObject({ type: 'finished', reason: 'no-bug' });
    expect(events.some((e) => e.type === 'error')).toBe(false);
    // A script whose closing means nothing (a solver's) still stops as one that failed to submit.
    expect((await run(new OfflineModel('offline/solver', findsNothing()))).reason).toBe('error');
  });

  it('runs tool calls, feeds results back and stops on submit, emitting each step', async () => {
    const stream = new EventStream();
    const events = collect(stream);
    const tools = new MemoryTools();
    const result = await runAgent({ model: new OfflineModel('offline/test', script()), tools, system: 's', task: 't', maxSteps: 10, stream });
    expect(result.reason).toBe('submitted');
    expect(result.steps).toBe(2);
    expect(result.submitted).toEqual(['a.diff']);
    expect(tools.calls.map((c) => c.name)).toEqual(['bash', 'nope', 'submit']);
    const finished = events.filter((e) => e.type === 'tool-call-finished');
    expect(finished.map((e) => e.type === 'tool-call-finished' && e.isError)).toEqual([false, true, false]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events.at(-1)).toMatchObject({ type: 'finished', reason: 'submitted', steps: 2 });
    // the second thought saw the first tool's output: results travel back through the messages
    const text = events.filter((e) => e.type === 'text-delta').map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
    expect(text).toContain('Saw: ran ls');
    // every tool_use has its tool_result in the next user message
    const last = result.messages.at(-1)!;
    expect(Array.isArray(last.content) && last.content.map((b) => b.type)).toEqual(['tool_result', 'tool_result']);
    // tool inputs streamed as partial JSON add up to the input
    const partial = events.filter((e) => e.type === 'tool-input-delta' && e.callId === 'toolu_offline_0001');
    expect(partial.map((e) => (e.type === 'tool-input-delta' ? e.partialJson : '')).join('')).toBe('{"command":"ls"}');
  });

  it('stops at max steps, at the budget, and when cancelled', async () => {
    const endless: Model = {
      name: 'endless',
      costOf: () => 0.4,
      async query(): Promise<ModelTurn> {
        return { content: [{ type: 'tool_use', id: `t${Math.random()}`, name: 'bash', input: { command: 'true' } }], usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, stopReason: 'tool_use' };
      },
    };
    const steps = await runAgent({ model: endless, tools: new MemoryTools(), system: '', task: '', maxSteps: 3, stream: new EventStream() });
    expect(steps).toMatchObject({ reason: 'max-steps', steps: 3 });
    const budget = await runAgent({ model: endless, tools: new MemoryTools(), system: '', task: '', maxSteps: 50, stream: new EventStream(), budget: new Budget(1) });
    expect(budget).toMatchObject({ reason: 'budget', steps: 3 });
    expect(budget.costUsd).toBeCloseTo(1.2);
    const shared = new Budget(0.5);
    const run = await runAgent({ model: endless, tools: new MemoryTools(), system: '', task: '', maxSteps: 50, stream: new EventStream(), runBudget: shared });
    expect(run).toMatchObject({ reason: 'budget', steps: 2 });
    const controller = new AbortController();
    controller.abort();
    const cancelled = await runAgent({ model: endless, tools: new MemoryTools(), system: '', task: '', maxSteps: 5, stream: new EventStream(), signal: controller.signal });
    expect(cancelled).toMatchObject({ reason: 'cancelled', steps: 0 });
  });

  it('ends when the model stops calling tools', async () => {
    async function* quitter(): ScriptedAgent {
      return 'Nothing to do here.';
    }
    const result = await runAgent({ model: new OfflineModel('q', quitter()), tools: new MemoryTools(), system: '', task: '', maxSteps: 10, stream: new EventStream() });
    expect(result.reason).toBe('error');
    expect(result.detail).toBe('the model stopped without submitting: Nothing to do here.');
  });

  it('keeps streaming to the other subscribers when one throws', () => {
    const stream = new EventStream();
    const seen: number[] = [];
    stream.subscribe(() => {
      throw new Error('broken view');
    });
    stream.subscribe((e) => seen.push(e.seq));
    stream.emit({ type: 'step-started', step: 1 });
    stream.emit({ type: 'step-started', step: 2 });
    expect(seen).toEqual([0, 1]);
  });
});
