import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventStream } from '../../../src/agent/events.js';
import { runAgent } from '../../../src/agent/loop.js';
import type { Model, ModelTurn } from '../../../src/agent/model.js';
import { OfflineModel, type ScriptedAgent } from '../../../src/agent/offline/offline-model.js';
import type { Tools, ToolResult } from '../../../src/agent/tools.js';
import { readTrajectory, TrajectoryRecorder } from '../../../src/agent/trajectory.js';
import { chatMessages } from '../../../src/datasets/sft.js';
import { chatOf, MINI_SWE_TRAJECTORY_FORMAT, miniSweTrajectory, type RolloutFacts } from '../../../src/datasets/trajectories/mini-swe.js';
import { MINI_SWE_TRAJECTORY } from '../../fixtures/mini-swe-agent/trajectory.js';
import { inspect } from '../../helpers/mini-swe-inspector.js';

/** Tools that answer from memory, with a bash exit code and a submit that hands in a patch. */
class MemoryTools implements Tools {
  definitions = [
    { name: 'bash', description: 'run a command', input_schema: { type: 'object' } },
    { name: 'editor', description: 'edit a file', input_schema: { type: 'object' } },
    { name: 'submit', description: 'hand in', input_schema: { type: 'object' } },
  ];
  async execute(name: string, input: unknown): Promise<ToolResult> {
    if (name === 'submit') return { output: 'Submitted', isError: false, submitted: ['a.py'] };
    if (name === 'bash') return { output: `ran ${(input as { command: string }).command}\n[exit code 3]`, isError: false, exitCode: 3 };
    return { output: 'edited', isError: false };
  }
}

async function* offlineScript(): ScriptedAgent {
  yield { thought: 'Looking around.', calls: [{ name: 'bash', input: { command: 'ls' } }] };
  yield { thought: 'Fixing it.', calls: [{ name: 'editor', input: { command: 'str_replace', path: 'a.py', old_str: 'x', new_str: 'y' } }, { name: 'bash', input: { command: 'pytest -q' } }] };
  yield { thought: 'Done.', calls: [{ name: 'submit', input: {} }] };
  return 'submitted';
}

/** A model that answers from a script, streaming its text and tool inputs and charging for its tokens, as a real one does. */
function scriptedModel(): Model {
  const turns: ModelTurn['content'][] = [
    [{ type: 'text', text: 'I will read the failing test.' }, { type: 'tool_use', id: 'toolu_01', name: 'bash', input: { command: 'cat tests/test_a.py' } }],
    [{ type: 'text', text: 'The bound is off by one.' }, { type: 'tool_use', id: 'toolu_02', name: 'editor', input: { command: 'view', path: 'a.py' } }],
    [{ type: 'tool_use', id: 'toolu_03', name: 'submit', input: {} }],
  ];
  let i = 0;
  return {
    name: 'scripted-sonnet',
    costOf: (usage) => usage.inputTokens * 3e-6 + usage.outputTokens * 15e-6,
    async query(_request, callbacks): Promise<ModelTurn> {
      const content = turns[i++]!;
      for (const block of content) {
        if (block.type === 'text') callbacks.onText?.(block.text);
        if (block.type === 'tool_use') {
          callbacks.onToolStart?.(block.id, block.name);
          callbacks.onToolInputDelta?.(block.id, JSON.stringify(block.input));
        }
      }
      return { content, usage: { inputTokens: 1000 * i, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 }, stopReason: 'tool_use' };
    },
  };
}

async function record(model: Model, role: 'solver' | 'injector' = 'solver') {
  const path = join(mkdtempSync(join(tmpdir(), 'bugbench-traj-')), 'r1.jsonl');
  const stream = new EventStream();
  const recorder = new TrajectoryRecorder(path);
  recorder.attach(stream);
  stream.emit({ type: 'rollout-started', rolloutId: 'run-1-a1', runId: 'run-1', role, strategy: 'template', policy: 'p', model: model.name, image: 'img' });
  const tools = new MemoryTools();
  const result = await runAgent({ model, tools, system: 'You fix bugs.', task: 'Fix the bound.', maxSteps: 10, stream });
  recorder.writeMessages(result.messages, { system: 'You fix bugs.', tools: tools.definitions });
  return { trajectory: readTrajectory(path), result };
}

const facts = (model: string): RolloutFacts => ({
  rolloutId: 'run-1-a1',
  runId: 'run-1',
  role: 'solver',
  model,
  startedAt: '2026-01-01T00:00:00.000Z',
  bugId: 'repo-direct-1',
  submission: 'diff --git a/a.py b/a.py\n',
  attempt: { solved: true, reward: 1, failing: [] },
  status: 'submitted',
});

type Json = Record<string, unknown>;
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every key path of `fixture` (objects only; arrays by their first element) with its JSON type. */
function paths(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      const p = prefix ? `${prefix}.${k}` : k;
      out.set(p, kind(v));
      if (kind(v) === 'object') for (const [q, t] of paths(v, p)) out.set(q, t);
      if (kind(v) === 'array' && (v as unknown[]).length > 0 && kind((v as unknown[])[0]) === 'object') for (const [q, t] of paths((v as unknown[])[0], `${p}[]`)) out.set(q, t);
    }
  }
  return out;
}

/** The fields a message of each role has in the fixture, which ours must have too (with the same type). */
function expectFieldsOf(ours: Json[], fixture: Json[]): void {
  for (const role of ['system', 'user', 'assistant', 'tool', 'exit']) {
    const theirs = fixture.filter((m) => m.role === role);
    const mine = ours.filter((m) => m.role === role);
    expect(mine.length, `messages of role ${role}`).toBeGreaterThan(0);
    const wanted = new Map<string, string>();
    for (const m of theirs) for (const [p, t] of paths(m)) if (!p.startsWith('extra.') || ['extra.actions', 'extra.returncode', 'extra.exit_status', 'extra.submission', 'extra.cost', 'extra.timestamp'].includes(p)) wanted.set(p, t);
    for (const m of mine) {
      const have = paths(m);
      for (const [p, t] of wanted) {
        if (p === 'tool_calls' || p.startsWith('tool_calls')) {
          if (!('tool_calls' in m)) continue; // an assistant turn that only speaks has no tool calls
        }
        expect(have.has(p), `${role} message lacks ${p}: ${JSON.stringify(m).slice(0, 200)}`).toBe(true);
        if (t !== 'null' && have.get(p) !== 'null') expect(have.get(p), `${role}.${p}`).toBe(t);
      }
    }
  }
}

describe("mini-swe-agent's trajectory format", () => {
  it("the fixture written from mini-swe-agent's docs opens in the inspector's loader", () => {
    const steps = inspect(MINI_SWE_TRAJECTORY);
    expect(steps.flat().map((m) => m.role)).toEqual(['SYSTEM', 'USER', 'ASSISTANT', 'TOOL', 'ASSISTANT', 'EXIT']);
    expect(steps[1]![0]!.text).toContain('cat src/app.py');
  });

  for (const [name, make] of [
    ['an offline rollout', () => new OfflineModel('offline/oracle', offlineScript())],
    ['a scripted-model rollout', () => scriptedModel()],
  ] as const) {
    it(`${name} has every field mini-swe-agent writes and its inspector reads, and its messages are the sft export's`, async () => {
      const model = make();
      const { trajectory, result } = await record(model);
      const file = miniSweTrajectory(trajectory, facts(model.name)) as unknown as Json;
      const written = JSON.parse(JSON.stringify(file)) as Json;

      // Top level and info: every path the fixture has, with its type (the config's content is each tool's own).
      const fixturePaths = [...paths(MINI_SWE_TRAJECTORY)].filter(([p]) => !p.startsWith('messages') && !p.startsWith('info.config.') && p !== 'info.mini_version');
      const ours = paths(written);
      for (const [p, t] of fixturePaths) {
        expect(ours.has(p), `missing ${p}`).toBe(true);
        expect(ours.get(p), p).toBe(t);
      }
      expect(written.trajectory_format).toBe(MINI_SWE_TRAJECTORY_FORMAT);
      expect(written.info).toMatchObject({ exit_status: 'Submitted', submission: 'diff --git a/a.py b/a.py\n', model_stats: { api_calls: result.steps, instance_cost: result.costUsd } });

      // Messages: each role carries the fields the fixture's do; tool calls are OpenAI-style with JSON arguments.
      const messages = written.messages as Json[];
      expectFieldsOf(messages, MINI_SWE_TRAJECTORY.messages as unknown as Json[]);
      for (const m of messages.filter((x) => x.role === 'assistant')) {
        const calls = m.tool_calls as { function: { arguments: string } }[];
        for (const call of calls) expect(() => JSON.parse(call.function.arguments)).not.toThrow();
        expect((m.extra as Json).actions).toHaveLength(calls.length);
        expect((m.extra as Json).timestamp).toEqual(expect.any(Number));
      }
      const bash = messages.find((m) => m.role === 'tool' && /^ran (ls|cat)/.test(String(m.content)));
      expect((bash!.extra as Json).returncode).toBe(3);
      expect(messages.at(-1)).toMatchObject({ role: 'exit', extra: { exit_status: 'Submitted', submission: 'diff --git a/a.py b/a.py\n' } });

      // The inspector opens it: one page per model turn, each with something to show.
      const steps = inspect(written);
      expect(steps.filter((s) => s[0]!.role === 'ASSISTANT')).toHaveLength(result.steps);
      for (const step of steps) for (const m of step) if (m.role === 'ASSISTANT') expect(m.text.length).toBeGreaterThan(0);

      // Round trip: without mini-swe-agent's additions, the messages are exactly the sft export's.
      expect(chatOf(file.messages as never)).toEqual(chatMessages(trajectory.system!, trajectory.messages!));
    });
  }

  it('costs and calls add up for a model that charges, and a crashed rollout says so', async () => {
    const { trajectory } = await record(scriptedModel());
    const file = miniSweTrajectory(trajectory, facts('scripted-sonnet'));
    const costs = file.messages.filter((m) => m.role === 'assistant').map((m) => (m.extra as { cost: number }).cost);
    expect(costs).toHaveLength(3);
    expect(file.info.model_stats.instance_cost).toBeCloseTo(costs.reduce((a, b) => a + b, 0));
    expect(file.info.model_stats.instance_cost).toBeGreaterThan(0);
    const cut = { ...trajectory, events: trajectory.events.filter((e) => e.type !== 'finished') };
    expect(miniSweTrajectory(cut, { ...facts('m'), status: 'interrupted' }).info.exit_status).toBe('Interrupted');
  });
});
