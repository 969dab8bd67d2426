import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/agent/messages.js';
import { chatMessages, parseArguments, TurnAssembler } from '../../../src/agent/openai-chat.js';
import { normalizeBaseUrl, resolveEndpoint } from '../../../src/agent/openai-endpoint.js';

type Chunk = Parameters<TurnAssembler['apply']>[0];

const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, number>): Chunk =>
  ({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) }) as unknown as Chunk;

function assemble(chunks: Chunk[]) {
  const seen = { text: '', reasoning: '', starts: [] as string[], input: new Map<string, string>() };
  let n = 0;
  const assembler = new TurnAssembler(
    {
      onText: (t) => (seen.text += t),
      onReasoning: (t) => (seen.reasoning += t),
      onToolStart: (id, name) => seen.starts.push(`${id}:${name}`),
      onToolInputDelta: (id, piece) => seen.input.set(id, (seen.input.get(id) ?? '') + piece),
    },
    () => `gen_${++n}`,
  );
  for (const c of chunks) assembler.apply(c);
  return { turn: assembler.result(), finished: assembler.finished, seen, received: assembler.received };
}

const input = { command: 'grep -n "def parse" src/*.py | head -n 5 && echo "ünï \\"q\\""' };
const args = JSON.stringify(input);

describe('a streamed chat-completions turn put back together', () => {
  it('assembles arguments sent one character a delta, and passes each piece on as it comes', () => {
    const { turn, seen } = assemble([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Looking ' }),
      chunk({ content: 'first.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'bash', arguments: '' } }] }),
      ...[...args].map((c) => chunk({ tool_calls: [{ index: 0, function: { arguments: c } }] })),
      chunk({}, 'tool_calls'),
    ]);
    expect(turn.content).toEqual([
      { type: 'text', text: 'Looking first.' },
      { type: 'tool_use', id: 'call_1', name: 'bash', input },
    ]);
    expect(turn.finishReason).toBe('tool_calls');
    expect(seen.text).toBe('Looking first.');
    expect(seen.starts).toEqual(['call_1:bash']);
    expect(seen.input.get('call_1')).toBe(args);
  });

  it('takes arguments sent whole, several calls by index, interleaved, and finish_reason stop with tool calls', () => {
    const { turn, seen } = assemble([
      chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'bash', arguments: '{"command":' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'editor', arguments: '{"command":"view","path":"x.py"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] }),
      chunk({}, 'stop'),
    ]);
    expect(turn.content).toEqual([
      { type: 'tool_use', id: 'a', name: 'bash', input: { command: 'ls' } },
      { type: 'tool_use', id: 'b', name: 'editor', input: { command: 'view', path: 'x.py' } },
    ]);
    // A server that says `stop` after tool calls still gets its calls run.
    expect(turn.finishReason).toBe('tool_calls');
    expect(seen.starts).toEqual(['a:bash', 'b:editor']);
  });

  it('tells calls apart by a new id when a server gives every call index 0, and makes up ids a server leaves out', () => {
    const { turn } = assemble([
      chunk({ tool_calls: [{ index: 0, id: 'x1', function: { name: 'bash', arguments: '{"command":"a"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'x2', function: { name: 'bash', arguments: '{"command":"b"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { name: 'submit', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(turn.content.map((b) => (b.type === 'tool_use' ? `${b.id} ${JSON.stringify(b.input)}` : ''))).toEqual(['x1 {"command":"a"}', 'x2 {"command":"b"}', 'gen_1 {}']);
  });

  it('keeps reasoning from reasoning_content or reasoning as its own block, before the answer', () => {
    for (const field of ['reasoning_content', 'reasoning']) {
      const { turn, seen } = assemble([chunk({ [field]: 'The parser drops ' }), chunk({ [field]: 'the last line.' }), chunk({ content: 'Fixing it.' }), chunk({}, 'stop')]);
      expect(turn.content).toEqual([
        { type: 'reasoning', text: 'The parser drops the last line.' },
        { type: 'text', text: 'Fixing it.' },
      ]);
      expect(seen.reasoning).toBe('The parser drops the last line.');
      expect(turn.finishReason).toBe('stop');
    }
  });

  it('reads usage from a last chunk without choices, from every chunk, or finds none', () => {
    expect(assemble([chunk({ content: 'hi' }, 'stop'), { id: 'u', choices: [], usage: { prompt_tokens: 12, completion_tokens: 3 } } as unknown as Chunk]).turn.usage).toEqual({ prompt: 12, completion: 3 });
    expect(assemble([chunk({ content: 'h' }, null, { prompt_tokens: 12, completion_tokens: 1 }), chunk({ content: 'i' }, 'stop', { prompt_tokens: 12, completion_tokens: 2 })]).turn.usage).toEqual({ prompt: 12, completion: 2 });
    expect(assemble([chunk({ content: 'hi' }, 'stop')]).turn.usage).toBeNull();
  });

  it('knows a turn without a finish_reason is unfinished, and keeps what arrived for its cost', () => {
    const cut = assemble([chunk({ content: 'Half' }), chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'bash', arguments: '{"comm' } }] })]);
    expect(cut.finished).toBe(false);
    expect(cut.received).toBe('Halfbash{"comm');
    expect(parseArguments('{"comm')).toEqual({ _unparsed: '{"comm' });
    expect(parseArguments('  ')).toEqual({});
  });
});

describe("bugbench's conversation as chat messages", () => {
  it('maps tool_use to tool_calls and tool_result to tool messages, drops reasoning, and puts text after results', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Fix the bug.' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hidden thoughts' },
          { type: 'text', text: 'Running the tests.' },
          { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'pytest' } },
          { type: 'tool_use', id: 't2', name: 'bash', input: { _unparsed: '{"command": "ls' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: '3 failed' },
          { type: 'tool_result', tool_use_id: 't2', content: 'bad input', is_error: true },
          { type: 'text', text: 'Keep going.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't3', name: 'submit', input: {} }] },
    ];
    expect(chatMessages('You fix bugs.', messages)).toEqual([
      { role: 'system', content: 'You fix bugs.' },
      { role: 'user', content: 'Fix the bug.' },
      {
        role: 'assistant',
        content: 'Running the tests.',
        tool_calls: [
          { id: 't1', type: 'function', function: { name: 'bash', arguments: '{"command":"pytest"}' } },
          { id: 't2', type: 'function', function: { name: 'bash', arguments: '{"command": "ls' } },
        ],
      },
      { role: 'tool', tool_call_id: 't1', content: '3 failed' },
      { role: 'tool', tool_call_id: 't2', content: 'bad input' },
      { role: 'user', content: 'Keep going.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 't3', type: 'function', function: { name: 'submit', arguments: '{}' } }] },
    ]);
  });
});

describe("the openai policy's server settings", () => {
  it('takes the flag, then the environment, then the config file; a local server needs no key', () => {
    const env = { OPENAI_BASE_URL: 'http://env:8000/v1', OPENAI_MODEL: 'env-model', BUGBENCH_HOME: '/nonexistent-bugbench-home' };
    expect(resolveEndpoint({ baseUrl: 'http://flag:9000', model: 'flag-model', priceIn: 0.5 }, env)).toEqual({
      baseUrl: 'http://flag:9000/v1',
      apiKey: 'EMPTY',
      model: 'flag-model',
      price: { inputPerMTok: 0.5, outputPerMTok: 0 },
    });
    expect(resolveEndpoint({}, { ...env, OPENAI_API_KEY: 'sk-x' })).toMatchObject({ baseUrl: 'http://env:8000/v1', model: 'env-model', apiKey: 'sk-x' });
    expect(() => resolveEndpoint({}, { BUGBENCH_HOME: '/nonexistent-bugbench-home' })).toThrow(/needs its server: pass --base-url URL/);
    const home = mkdtempSync(join(tmpdir(), 'bugbench-openai-config-'));
    writeFileSync(join(home, 'bugbench.config.json'), JSON.stringify({ openai: { baseUrl: 'http://config:8000', model: 'config-model', apiKey: 'sk-config', priceOut: 2 } }));
    expect(resolveEndpoint({}, { BUGBENCH_HOME: home })).toEqual({ baseUrl: 'http://config:8000/v1', apiKey: 'sk-config', model: 'config-model', price: { inputPerMTok: 0, outputPerMTok: 2 } });
    expect(resolveEndpoint({ model: 'flag' }, { BUGBENCH_HOME: home, OPENAI_BASE_URL: 'http://env/v2' })).toMatchObject({ baseUrl: 'http://env/v2', model: 'flag' });
    writeFileSync(join(home, 'bugbench.config.json'), JSON.stringify({ openai: { priceIn: 'free' } }));
    expect(() => resolveEndpoint({ baseUrl: 'http://x' }, { BUGBENCH_HOME: home })).toThrow(/"openai.priceIn" must be a number/);
    expect(normalizeBaseUrl('http://h:8000/v1/')).toBe('http://h:8000/v1');
    expect(() => normalizeBaseUrl('localhost:8000')).toThrow(/not an http\(s\) address|not a server address/);
  });
});
