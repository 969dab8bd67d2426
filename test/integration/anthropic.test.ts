import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from '../../src/agent/anthropic-model.js';
import { DEFAULT_CHECK_PARAMS } from '../../src/bugs/meta.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { bugDetails } from '../../src/pipeline/bug-details.js';
import { runInjection } from '../../src/pipeline/inject.js';
import { openStore } from '../../src/store/store.js';
import { bugbench } from '../helpers/cli.js';
import { MockAnthropic, streamOf, turnEvents, type ScriptedAnswer } from '../helpers/mock-anthropic.js';

const KEY = 'sk-ant-test-key-0000';
let server: MockAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: ScriptedAnswer[]): Promise<MockAnthropic> {
  server = await new MockAnthropic(script, KEY).start();
  return server;
}

const request = { system: 'You are a test.', messages: [{ role: 'user' as const, content: 'Go.' }], tools: [{ name: 'bash', description: 'run', input_schema: { type: 'object' } }] };

describe('the anthropic policy through the real SDK', () => {
  it('assembles a tool call whose JSON arrives in many pieces, and streams the raw pieces', async () => {
    const input = { command: 'python3 -m pytest -rA tests/test_lexer.py | tail -n 20 && echo "done: \\"quoted\\" ünïcode"' };
    const mock = await serve([streamOf({ text: 'Let me run the tests first.', tools: [{ id: 'toolu_01', name: 'bash', input }], jsonPieces: 17, cacheReadTokens: 900, cacheWriteTokens: 50 }, 2)]);
    const model = new AnthropicModel({ apiKey: KEY, baseURL: mock.url, model: 'claude-sonnet-5-5' });
    const pieces: string[] = [];
    const text: string[] = [];
    const turn = await model.query(request, { onToolInputDelta: (_, p) => pieces.push(p), onText: (t) => text.push(t) });
    expect(pieces.length).toBeGreaterThanOrEqual(15);
    expect(pieces.join('')).toBe(JSON.stringify(input));
    expect(text.join('')).toBe('Let me run the tests first.');
    expect(turn.content).toEqual([
      { type: 'text', text: 'Let me run the tests first.' },
      { type: 'tool_use', id: 'toolu_01', name: 'bash', input },
    ]);
    expect(turn.usage).toEqual({ inputTokens: 100, outputTokens: 50, cacheReadTokens: 900, cacheWriteTokens: 50 });
    expect(model.costOf(turn.usage)).toBeCloseTo((100 * 3 + 900 * 0.3 + 50 * 3.75 + 50 * 15) / 1e6);
    const body = mock.messageRequests[0]!.body!;
    expect(body.stream).toBe(true);
    expect((body.system as { cache_control?: unknown }[])[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect((body.tools as { cache_control?: unknown }[]).at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('retries a 529 overloaded answer and succeeds', async () => {
    const mock = await serve([
      { kind: 'http-error', status: 529, errorType: 'overloaded_error', message: 'Overloaded' },
      streamOf({ text: 'Fine now.' }),
    ]);
    const model = new AnthropicModel({ apiKey: KEY, baseURL: mock.url });
    const turn = await model.query(request, {});
    expect(turn.content).toEqual([{ type: 'text', text: 'Fine now.' }]);
    expect(mock.messageRequests).toHaveLength(2);
  });

  it('retries the whole turn when an overloaded error arrives inside the stream, or the connection drops', async () => {
    const partial = turnEvents({ text: 'This partial answer is thrown away' }).slice(0, 3);
    const mock = await serve([
      { kind: 'stream', events: [...partial, { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }] },
      { kind: 'stream', events: [...partial, { event: 'cut', data: {} }], delayMs: 20 },
      streamOf({ text: 'Complete answer.' }),
    ]);
    const model = new AnthropicModel({ apiKey: KEY, baseURL: mock.url, retryDelayMs: 20 });
    const retries: string[] = [];
    const turn = await model.query(request, { onRetry: (attempt, reason) => retries.push(`${attempt}: ${reason}`) });
    expect(turn.content).toEqual([{ type: 'text', text: 'Complete answer.' }]);
    expect(retries, retries.join("\n")).toHaveLength(2);
    expect(retries[0]).toMatch(/^1: .*[Oo]verloaded/);
    expect(retries[1]).toMatch(/^2: /);
    expect(mock.messageRequests).toHaveLength(3);
  });

  it('stops with one clear line on a rejected key, before any container starts', async () => {
    const mock = await serve([]);
    const home = mkdtempSync(join(tmpdir(), 'bugbench-home-'));
    const result = await bugbench(
      ['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '--policy', 'anthropic'],
      { env: { ANTHROPIC_API_KEY: 'sk-ant-wrong-key-1234', ANTHROPIC_BASE_URL: mock.url, BUGBENCH_HOME: home } },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe('bugbench: the Anthropic API rejected ANTHROPIC_API_KEY (HTTP 401); check the key');
    expect(result.stderr).not.toContain('sk-ant-wrong');
    expect(mock.messageRequests).toHaveLength(0);
    expect(existsSync(join(home, 'runs'))).toBe(false);
  });

  it('stops with one clear line when the key is missing', async () => {
    const result = await bugbench(['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'featadd', '--policy', 'anthropic'], {
      env: { ANTHROPIC_API_KEY: '' },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe('bugbench: the anthropic policy needs ANTHROPIC_API_KEY; set it, or use --policy offline');
  });
});

describe('a scripted model injecting through the tools', () => {
  it('makes a bug in the knotcfg image whose artifact passes all nine checks', async () => {
    const parser = readFileSync(join(PACKAGE_ROOT, 'data', 'parsers', 'pytest_parser.py'), 'utf8');
    const weaken = [
      'import re',
      'p = "tests/test_serializer.py"',
      's = open(p).read()',
      'for name in ("test_round_trip_of_floats_written_with_exponent", "test_non_ascii_key_is_quoted"):',
      '    s = re.sub(r"\\ndef %s\\(\\):\\n(?:    .*\\n|\\n(?=    ))*\\n\\n" % name, "\\n", s)',
      'open(p, "w").write(s)',
    ].join('\n');
    const mock = await serve([
      streamOf({ text: 'I will look at the history first.', tools: [{ id: 'toolu_a1', name: 'bash', input: { command: 'git log --oneline | head -n 30' } }] }),
      streamOf({
        text: 'The exponent and key-quoting fixes are good candidates. First the parser and the test script.',
        jsonPieces: 40,
        tools: [
          { id: 'toolu_a2', name: 'editor', input: { command: 'create', path: '/tmp/artifact/test_parser.py', file_text: parser } },
          {
            id: 'toolu_a3',
            name: 'bash',
            input: {
              command:
                "mkdir -p /tmp/artifact && printf '#!/bin/bash\\npython3 -m pytest -rA -p no:cacheprovider tests/test_lexer.py tests/test_serializer.py tests/test_parser.py\\n' > /tmp/artifact/test_script.sh && printf 'tests/test_lexer.py\\ntests/test_serializer.py\\ntests/test_parser.py\\n' > /tmp/artifact/test_files.txt && bash /tmp/artifact/test_script.sh | tail -n 1",
            },
          },
        ],
      }),
      streamOf({
        text: 'Reverting the code side of both fixes.',
        tools: [
          {
            id: 'toolu_a4',
            name: 'bash',
            input: {
              command:
                'git show ef2ddd9 -- knotcfg/lexer.py | git apply -R && git show da850ec -- knotcfg/serializer.py | git apply -R && git diff > /tmp/artifact/bug_inject.diff && bash /tmp/artifact/test_script.sh | tail -n 1',
            },
          },
        ],
      }),
      streamOf({
        text: 'Now hiding the two serializer tests.',
        tools: [
          { id: 'toolu_a5', name: 'editor', input: { command: 'create', path: '/tmp/weaken.py', file_text: weaken } },
          { id: 'toolu_a6', name: 'bash', input: { command: 'python3 /tmp/weaken.py && git diff -- tests > /tmp/artifact/test_weaken.diff && git diff --stat' } },
        ],
      }),
      streamOf({
        text: 'Submitting.',
        tools: [
          {
            id: 'toolu_a7',
            name: 'submit',
            input: {
              test_files: '/tmp/artifact/test_files.txt',
              test_script: '/tmp/artifact/test_script.sh',
              test_parser: '/tmp/artifact/test_parser.py',
              bug_inject: '/tmp/artifact/bug_inject.diff',
              test_weaken: '/tmp/artifact/test_weaken.diff',
            },
          },
        ],
      }),
      // BugPilot's analysis of the valid bug: its report, then its category
      streamOf({ text: 'Serialising a config with a quoted key writes it back unquoted, so reading it again fails.' }),
      streamOf({ text: '<reasoning>The output format is wrong for some inputs.</reasoning>\n<category>C</category>' }),
    ]);
    const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
    process.env.ANTHROPIC_API_KEY = KEY;
    process.env.ANTHROPIC_BASE_URL = mock.url;
    try {
      const result = await runInjection({
        image: 'bugbench/repo-knotcfg:latest',
        strategy: 'history',
        policy: 'anthropic',
        n: 1,
        concurrency: 1,
        seed: 0,
        params: DEFAULT_CHECK_PARAMS,
        maxSteps: 20,
        budgetUsd: 5,
      }, { store: openStore() });
      expect(result.rollouts[0]).toMatchObject({ reason: 'submitted', steps: 5 });
      expect(result.bugs).toHaveLength(1);
      const bug = result.bugs[0]!;
      expect(bug.failedCheck).toBeNull();
      expect(bug.valid).toBe(true);
      expect(bugDetails(openStore(), bug.id).FAIL_TO_PASS).toHaveLength(6);
      // the analysis asked the same model, after the rollout
      expect(bug.analysisError).toBeUndefined();
      expect(openStore().get('bugs', bug.id)?.analysis).toMatchObject({ category: 'C', report: { source: 'model' } });
      // every agent request after the first carried the previous tool results
      const agentRequests = mock.messageRequests.filter((req) => ((req.body!.tools as unknown[] | undefined) ?? []).length > 0);
      expect(agentRequests).toHaveLength(5);
      for (const req of agentRequests.slice(1)) {
        const messages = req.body!.messages as { role: string; content: { type: string }[] }[];
        expect(messages.at(-1)!.content.every((b) => b.type === 'tool_result')).toBe(true);
      }
      // the key is nowhere in what was recorded
      const runFiles = readdirSync(join(bug.trajectory, '..')).map((f) => readFileSync(join(bug.trajectory, '..', f), 'utf8'));
      for (const text of [...runFiles, readFileSync(join(bug.artifactDir, 'meta.json'), 'utf8')]) expect(text).not.toContain(KEY);
    } finally {
      process.env.ANTHROPIC_API_KEY = saved.key;
      process.env.ANTHROPIC_BASE_URL = saved.url;
      if (saved.key === undefined) delete process.env.ANTHROPIC_API_KEY;
      if (saved.url === undefined) delete process.env.ANTHROPIC_BASE_URL;
    }
  }, 180_000);
});
