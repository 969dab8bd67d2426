/**
 * The openai policy's model through the real `openai` library against our
 * scripted chat-completions server (no containers): each way servers stream a
 * turn, each fault, and the caps — for it and for the anthropic policy —
 * with servers that always answer with the most tokens allowed.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from '../../src/agent/anthropic-model.js';
import { Budget } from '../../src/agent/budget.js';
import { EventStream } from '../../src/agent/events.js';
import { runAgent } from '../../src/agent/loop.js';
import type { Model } from '../../src/agent/model.js';
import { Rng } from '../../src/agent/offline/rng.js';
import { ModelNotServedError, OpenAIModel, OpenAIServerError, ToolsUnsupportedError } from '../../src/agent/openai-model.js';
import type { ToolResult, Tools } from '../../src/agent/tools.js';
import { MockAnthropic, streamOf } from '../helpers/mock-anthropic.js';
import { MockOpenAI, promptTokensOf, turn, type OpenAIAnswer, type ServerVariant } from '../helpers/mock-openai.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: OpenAIAnswer[], variant: ServerVariant = {}): Promise<MockOpenAI> {
  const mock = await new MockOpenAI(script, variant).start();
  servers.push(mock);
  return mock;
}

/** The model, deaf to this machine's OPENAI_* variables and config. */
const modelFor = (mock: MockOpenAI, extra: Partial<ConstructorParameters<typeof OpenAIModel>[0]> = {}) =>
  new OpenAIModel({ baseUrl: mock.url, model: 'test-model', retryDelayMs: 10, env: { BUGBENCH_HOME: '/nonexistent-bugbench-home' }, ...extra });

const request = { system: 'You are a test.', messages: [{ role: 'user' as const, content: 'Go.' }], tools: [{ name: 'bash', description: 'run', input_schema: { type: 'object' } }] };
const input = { command: 'python3 -m pytest -q tests/test_lexer.py | tail -n 3 && echo "ünï \\"q\\""' };

function listen() {
  const seen = { text: '', reasoning: '', starts: [] as string[], pieces: [] as string[], retries: [] as string[] };
  return {
    seen,
    callbacks: {
      onText: (t: string) => (seen.text += t),
      onReasoning: (t: string) => (seen.reasoning += t),
      onToolStart: (id: string, name: string) => seen.starts.push(`${id} ${name}`),
      onToolInputDelta: (_: string, p: string) => seen.pieces.push(p),
      onRetry: (attempt: number, reason: string, delayMs: number) => seen.retries.push(`${attempt} ${delayMs} ${reason}`),
    },
  };
}

describe('the openai policy streaming through the real library', () => {
  it('assembles a vLLM turn: reasoning, text and a call whose arguments come a character at a time; usage when asked for', async () => {
    const mock = await serve([turn({ reasoning: 'The lexer test should tell.', text: 'Running it.', tools: [{ id: 'chatcmpl-tool-1', name: 'bash', input }] })], { split: 'chars' });
    const { seen, callbacks } = listen();
    const result = await modelFor(mock, { maxTokens: 2048 }).query(request, callbacks);
    expect(result.content).toEqual([
      { type: 'reasoning', text: 'The lexer test should tell.' },
      { type: 'text', text: 'Running it.' },
      { type: 'tool_use', id: 'chatcmpl-tool-1', name: 'bash', input },
    ]);
    expect(seen.pieces.length).toBe(JSON.stringify(input).length);
    expect(seen.pieces.join('')).toBe(JSON.stringify(input));
    expect(seen).toMatchObject({ text: 'Running it.', reasoning: 'The lexer test should tell.', starts: ['chatcmpl-tool-1 bash'] });
    expect(result.usage.estimated).toBeUndefined();
    expect(result.usage.inputTokens).toBe(promptTokensOf(mock.turnRequests[0]!.body!));
    const body = mock.turnRequests[0]!.body!;
    expect(body).toMatchObject({ model: 'test-model', stream: true, stream_options: { include_usage: true }, max_tokens: 2048, tool_choice: 'auto' });
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'Go.' },
    ]);
    // no key given: the library sends a placeholder a local server ignores
    expect(mock.turnRequests[0]!.headers.authorization).toBe('Bearer EMPTY');
  });

  it('takes arguments sent whole, two calls in one turn, `stop` with tool calls, usage sent unasked, and `reasoning`', async () => {
    const mock = await serve(
      [turn({ reasoning: 'Two things to check.', tools: [{ id: 'a', name: 'bash', input: { command: 'ls' } }, { name: 'bash', input: { command: 'pwd' } }], finishReason: 'stop', promptTokens: 321, completionTokens: 45 })],
      { split: 'whole', usage: 'always', reasoningField: 'reasoning' },
    );
    const { seen, callbacks } = listen();
    const result = await modelFor(mock).query(request, callbacks);
    expect(result.content.map((b) => b.type)).toEqual(['reasoning', 'tool_use', 'tool_use']);
    expect(result.content[2]).toMatchObject({ type: 'tool_use', name: 'bash', input: { command: 'pwd' }, id: expect.stringMatching(/^call_/) });
    expect(result.stopReason).toBe('tool_calls');
    expect(result.usage).toEqual({ inputTokens: 321, outputTokens: 45, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(seen.pieces).toEqual(['{"command":"ls"}', '{"command":"pwd"}']);
  });

  it('counts the tokens itself, and says so, when the server sends no usage', async () => {
    const mock = await serve([turn({ text: 'Nothing to count here but this.' })], { usage: 'never' });
    const result = await modelFor(mock, { priceIn: 1, priceOut: 2 }).query(request, {});
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.outputTokens).toBe(countTokens('Nothing to count here but this.'));
    expect(result.usage.inputTokens).toBeGreaterThan(countTokens('You are a test.Go.'));
    expect(result.stopReason).toBe('stop');
  });

  it('retries a 429 after the wait the server asks for, and a stream cut mid-tool-call as a whole new turn', async () => {
    const mock = await serve([
      { kind: 'http-error', status: 429, body: { error: { message: 'too many requests', type: 'rate_limit', code: 429 } }, headers: { 'retry-after-ms': '30' } },
      { kind: 'turn', turn: { text: 'Partial ', tools: [{ id: 'call_cut', name: 'bash', input: { command: 'rm -rf half' } }] }, cutAfter: 8 },
      turn({ text: 'Complete.', tools: [{ id: 'call_ok', name: 'bash', input }] }),
    ]);
    const { seen, callbacks } = listen();
    const result = await modelFor(mock).query(request, callbacks);
    expect(result.content).toEqual([
      { type: 'text', text: 'Complete.' },
      { type: 'tool_use', id: 'call_ok', name: 'bash', input },
    ]);
    expect(seen.retries).toHaveLength(2);
    expect(seen.retries[0]).toMatch(/^1 30 429 too many requests/);
    expect(seen.retries[1]).toMatch(/^2 20 /);
    expect(mock.turnRequests).toHaveLength(3);
  });

  it('learns to send max_completion_tokens, or no stream_options, from a server that refuses the other', async () => {
    const mock = await serve([turn({ text: 'one' }), turn({ text: 'two' })], { onlyCompletionTokens: true, noStreamOptions: true, usage: 'always' });
    const model = modelFor(mock, { maxTokens: 1000 });
    await model.verify();
    expect((await model.query(request, {})).content).toEqual([{ type: 'text', text: 'one' }]);
    expect((await model.query(request, {})).content).toEqual([{ type: 'text', text: 'two' }]);
    const last = mock.turnRequests.at(-1)!.body!;
    expect(last).toMatchObject({ max_completion_tokens: 1000 });
    expect(last.max_tokens).toBeUndefined();
    expect(last.stream_options).toBeUndefined();
    // verify learnt the limit's name, the first turn the rest; the second turn went through at once
    expect(mock.requests.filter((r) => r.body?.stream === true)).toHaveLength(3);
  });

  it('gives up with the last error after its retries, and never retries a refusal', async () => {
    const always500 = Array.from({ length: 3 }, () => ({ kind: 'http-error' as const, status: 503, body: { error: { message: 'engine overloaded' } } }));
    const busy = await serve(always500);
    await expect(modelFor(busy, { turnRetries: 2 }).query(request, {})).rejects.toThrow(/503 engine overloaded/);
    expect(busy.turnRequests).toHaveLength(3);
    const noTools = await serve([], { tools: false, oldErrors: true });
    const refused = modelFor(noTools).query(request, {});
    await expect(refused).rejects.toBeInstanceOf(ToolsUnsupportedError);
    await expect(refused).rejects.toThrow(/--enable-auto-tool-choice/);
    expect(noTools.turnRequests).toHaveLength(1);
  });
});

describe("the openai policy's checks before a run", () => {
  it('names a model the server does not serve, and what it serves', async () => {
    const mock = await serve([], { models: ['qwen3-8b-ckpt-1200', 'qwen3-8b-ckpt-1400'] });
    const error = await modelFor(mock, { model: 'qwen3-8b' }).verify().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNotServedError);
    expect((error as ModelNotServedError).code).toBe('BB_MODEL_NOT_SERVED');
    expect((error as Error).message).toBe(`the server at ${mock.url} does not serve the model "qwen3-8b"; it serves "qwen3-8b-ckpt-1200", "qwen3-8b-ckpt-1400" (pass one with --model)`);
    await expect(modelFor(mock, { model: undefined }).verify()).rejects.toThrow(/needs a model name: pass --model NAME or set OPENAI_MODEL; .* it serves "qwen3-8b-ckpt-1200"/);
    await expect(modelFor(mock, { model: 'qwen3-8b-ckpt-1400' }).verify()).resolves.toBeUndefined();
    expect(mock.turnRequests).toHaveLength(0);
  });

  it('says in one line that a server without tool calling cannot run agents, and what to start it with', async () => {
    const mock = await serve([], { tools: false, oldErrors: true });
    const error = await modelFor(mock).verify().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolsUnsupportedError);
    expect((error as Error).message).toMatch(/^the server at http:\/\/127\.0\.0\.1:\d+\/v1 does not take tool calls \(HTTP 400: "auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set\); start it with tool calling on — vLLM: --enable-auto-tool-choice --tool-call-parser/);
    expect((error as Error).message).not.toContain('\n');
  });

  it('says when nothing answers, or the key is refused', async () => {
    const gone = await serve([]);
    const url = gone.url;
    await gone.close();
    servers.pop();
    await expect(new OpenAIModel({ baseUrl: url, model: 'm', env: {} }).verify()).rejects.toThrow(new RegExp(`^nothing answers at ${url.replace(/[.]/g, '\\.')} \\(.*\\); start the server`));
    const locked = await serve([], { apiKey: 'sk-right' });
    const error = await modelFor(locked, { apiKey: 'sk-wrong' }).verify().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIServerError);
    expect((error as Error).message).toMatch(/refused the key \(HTTP 401\); set OPENAI_API_KEY/);
    expect((error as Error).message).not.toContain('sk-wrong');
    await expect(modelFor(locked, { apiKey: 'sk-right' }).verify()).resolves.toBeUndefined();
  });
});

/** Tools whose outputs grow the conversation. */
class GrowingTools implements Tools {
  definitions = [{ name: 'bash', description: 'run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }];
  constructor(private readonly rng: Rng) {}
  async execute(): Promise<ToolResult> {
    return { output: 'collected 12 items; test_lexer.py ....F. '.repeat(1 + this.rng.int(200)), isError: false, exitCode: 0 };
  }
}

/** Two rollouts sharing a run budget, each with its own, until the caps stop them. */
async function spendUntilCapped(makeModel: () => Model, seed: number) {
  const rng = new Rng(seed);
  const run = new Budget(0.02 + rng.next() * 0.1);
  const budgets = [new Budget(0.01 + rng.next() * 0.08), new Budget(rng.next() < 0.5 ? Number.POSITIVE_INFINITY : 0.01 + rng.next() * 0.08)];
  const results = await Promise.all(
    budgets.map((budget, i) =>
      runAgent({ model: makeModel(), tools: new GrowingTools(new Rng(seed * 7 + i)), system: 'You spend.', task: 'Keep running commands.', maxSteps: 60, stream: new EventStream(), budget, runBudget: run }),
    ),
  );
  return { run, budgets, results };
}

const command = (body: Record<string, unknown>) => ({ command: `echo ${String((body.messages as unknown[]).length).repeat(20)}` });

describe('the caps, with servers that always answer with the most tokens allowed', () => {
  it('hold for the openai policy over many seeds', async () => {
    const greedy: OpenAIAnswer = {
      kind: 'dynamic',
      answer: (body) => turn({ tools: [{ name: 'bash', input: command(body) }], completionTokens: body.max_tokens, promptTokens: Math.ceil(promptTokensOf(body) * 1.1) + 10 * (body.messages?.length ?? 0) }),
    };
    const mock = await serve(Array.from({ length: 2000 }, () => greedy), { usage: 'always' });
    let worst = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const { run, budgets, results } = await spendUntilCapped(() => modelFor(mock, { maxTokens: 4000, priceIn: 2, priceOut: 8 }), seed);
      for (const b of [run, ...budgets]) expect(b.spentUsd, `seed ${seed}`).toBeLessThanOrEqual(b.limitUsd);
      expect(results.map((r) => r.reason)).toEqual(['budget', 'budget']);
      worst = Math.max(worst, run.spentUsd / run.limitUsd);
    }
    expect(worst).toBeGreaterThan(0.6);
    // --max-tokens is the most any request asked for; many asked for less, lowered to what was left.
    const asked = mock.turnRequests.map((r) => r.body!.max_tokens!);
    expect(Math.max(...asked)).toBe(4000);
    expect(asked.some((t) => t < 4000)).toBe(true);
  }, 120_000);

  it('hold for the anthropic policy over many seeds (cache writes priced as the dearest input)', async () => {
    const key = 'sk-ant-test-key-0000';
    const greedy = {
      kind: 'dynamic' as const,
      answer: (body: Record<string, unknown>) => {
        const input = Math.ceil(countTokens(JSON.stringify([body.system, body.messages, body.tools])) * 0.9);
        return streamOf({ tools: [{ id: `toolu_${Math.random().toString(36).slice(2)}`, name: 'bash', input: command(body) }], inputTokens: Math.floor(input / 2), cacheWriteTokens: Math.ceil(input / 2), outputTokens: body.max_tokens as number });
      },
    };
    const mock = await new MockAnthropic(Array.from({ length: 2000 }, () => greedy), key).start();
    servers.push(mock);
    for (let seed = 1; seed <= 8; seed++) {
      const { run, budgets, results } = await spendUntilCapped(() => new AnthropicModel({ apiKey: key, baseURL: mock.url, model: 'claude-sonnet-5-5', maxTokens: 4000 }), seed);
      for (const b of [run, ...budgets]) expect(b.spentUsd, `seed ${seed}`).toBeLessThanOrEqual(b.limitUsd);
      expect(results.map((r) => r.reason)).toEqual(['budget', 'budget']);
    }
    const asked = mock.messageRequests.map((r) => r.body!.max_tokens as number);
    expect(Math.max(...asked)).toBe(4000);
    expect(asked.some((t) => t < 4000)).toBe(true);
  }, 120_000);
});
