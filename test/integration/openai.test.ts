/**
 * The openai policy end to end, through the CLI, the real Docker engine and a
 * scripted chat-completions server streaming like vLLM: an injection run with
 * `removal` making a valid bug, FeatAdd making a bug and "no bug", solving
 * with solved and failed attempts (through a 429 and a stream cut), the SFT
 * export of what it wrote, and the setup faults stopping before anything is
 * stored.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { readTrajectory } from '../../src/agent/trajectory.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { reverseDiff } from '../../src/bugs/reverse-diff.js';
import { hereDoc } from '../../src/sandbox/shell-text.js';
import { Store } from '../../src/store/store.js';
import { artifactPath } from '../helpers/artifacts.js';
import { BIN } from '../helpers/cli.js';
import { MockOpenAI, turn, type OpenAIAnswer, type ServerVariant, type TurnSpec } from '../helpers/mock-openai.js';

const KEY = 'sk-local-secret-7f3a';
// The scripted server takes this key; the CLI gets it with --api-key, which must never reach a record.
const MODEL = 'qwen3-ckpt-1400';
let server: MockOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: (OpenAIAnswer | TurnSpec)[], variant: ServerVariant = {}): Promise<MockOpenAI> {
  server = await new MockOpenAI(
    script.map((a) => ('kind' in a ? a : turn(a))),
    { models: [MODEL, 'other-ckpt'], apiKey: KEY, ...variant },
  ).start();
  return server;
}

/** The built CLI with the openai flags, none of this machine's model settings. */
function bugbench(home: string, args: string[], policy = true) {
  const flags = policy ? ['--policy', 'openai', '--model', MODEL, '--base-url', server!.url, '--api-key', KEY] : [];
  return execa('node', [BIN, ...args, ...flags], {
    env: { BUGBENCH_HOME: home, ANTHROPIC_API_KEY: '', OPENAI_BASE_URL: '', OPENAI_API_KEY: '', OPENAI_MODEL: '' },
    reject: false,
    timeout: 240_000,
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const newHome = () => mkdtempSync(join(tmpdir(), 'bugbench-openai-'));
const parser = readFileSync(join(PACKAGE_ROOT, 'data', 'parsers', 'pytest_parser.py'), 'utf8');

describe('an injection run with the openai policy', () => {
  it('makes a valid removal bug in knotcfg, analysed by the same model, recorded with its policy, model and server, never its key', async () => {
    const weaken = [
      'import re',
      'p = "tests/test_serializer.py"',
      's = open(p).read()',
      'for name in ("test_round_trip_of_floats_written_with_exponent", "test_non_ascii_key_is_quoted"):',
      '    s = re.sub(r"\\ndef %s\\(\\):\\n(?:    .*\\n|\\n(?=    ))*\\n\\n" % name, "\\n", s)',
      'open(p, "w").write(s)',
    ].join('\n');
    const mock = await serve(
      [
        { reasoning: 'Fix commits show where code can be taken out.', text: 'Looking at the history.', tools: [{ id: 'chatcmpl-tool-a1', name: 'bash', input: { command: 'git log --oneline | head -n 30' } }] },
        {
          reasoning: 'I need a parser and a script before removing anything.',
          tools: [
            { id: 'chatcmpl-tool-a2', name: 'editor', input: { command: 'create', path: '/tmp/artifact/test_parser.py', file_text: parser } },
            {
              id: 'chatcmpl-tool-a3',
              name: 'bash',
              input: {
                command:
                  "mkdir -p /tmp/artifact && printf '#!/bin/bash\\npython3 -m pytest -rA -p no:cacheprovider tests/test_lexer.py tests/test_serializer.py tests/test_parser.py\\n' > /tmp/artifact/test_script.sh && printf 'tests/test_lexer.py\\ntests/test_serializer.py\\ntests/test_parser.py\\n' > /tmp/artifact/test_files.txt && bash /tmp/artifact/test_script.sh | tail -n 1",
              },
            },
          ],
        },
        {
          reasoning: 'Removing the hunks those two fixes added.',
          tools: [{ id: 'chatcmpl-tool-a4', name: 'bash', input: { command: 'git show ef2ddd9 -- knotcfg/lexer.py | git apply -R && git show da850ec -- knotcfg/serializer.py | git apply -R && git diff > /tmp/artifact/bug_inject.diff && bash /tmp/artifact/test_script.sh | tail -n 1' } }],
        },
        {
          text: 'Hiding the two serializer tests.',
          tools: [
            { id: 'chatcmpl-tool-a5', name: 'editor', input: { command: 'create', path: '/tmp/weaken.py', file_text: weaken } },
            { id: 'chatcmpl-tool-a6', name: 'bash', input: { command: 'python3 /tmp/weaken.py && git diff -- tests > /tmp/artifact/test_weaken.diff && git diff --stat' } },
          ],
        },
        {
          tools: [
            {
              id: 'chatcmpl-tool-a7',
              name: 'submit',
              input: { test_files: '/tmp/artifact/test_files.txt', test_script: '/tmp/artifact/test_script.sh', test_parser: '/tmp/artifact/test_parser.py', bug_inject: '/tmp/artifact/bug_inject.diff', test_weaken: '/tmp/artifact/test_weaken.diff' },
            },
          ],
        },
        // BugPilot's analysis of the valid bug: a report, then a category, from the same model.
        { reasoning: 'The failing tests print quoted keys.', text: 'Writing a config with a non-ASCII key and reading it back fails.' },
        { text: '<reasoning>Output is wrong for some inputs.</reasoning><category>C</category>' },
      ],
      { split: 40 },
    );
    const home = newHome();
    const child = await bugbench(home, ['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '-n', '1', '--concurrency', '1', '--budget', '5', '--json']);
    expect(child.exitCode, child.stderr).toBe(0);
    const result = JSON.parse(child.stdout);
    expect(result.rollouts[0]).toMatchObject({ reason: 'submitted', steps: 5 });
    const [bug] = result.bugs;
    expect(bug).toMatchObject({ valid: true, failedCheck: null });
    const store = Store.open({ root: home });
    expect(store.get('bugs', bug.id)).toMatchObject({ strategy: 'removal', policy: 'openai', model: MODEL, analysis: { category: 'C', report: { source: 'model', model: MODEL } } });
    expect(store.get('runs', result.runId)).toMatchObject({ policy: 'openai', model: MODEL, baseUrl: mock.url, options: { policy: 'openai', model: MODEL, baseUrl: mock.url } });
    const meta = JSON.parse(readFileSync(join(bug.artifactDir, 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({ policy: 'openai', model: MODEL, baseUrl: mock.url });
    // The analysis asked without tools; every agent turn carried the previous results as tool messages.
    const turns = mock.turnRequests;
    expect(turns.map((r) => Array.isArray(r.body!.tools))).toEqual([true, true, true, true, true, false, false]);
    for (const r of turns.slice(1, 5)) expect(r.body!.messages!.at(-1)!.role).toBe('tool');
    // The reasoning streamed live and stayed in the transcript.
    const trajectory = readTrajectory(bug.trajectory);
    const reasoning = trajectory.events.filter((e) => e.type === 'text-delta' && e.reasoning).map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
    expect(reasoning).toContain('Removing the hunks those two fixes added.');
    expect(JSON.stringify(trajectory.messages)).toContain('{"type":"reasoning","text":"I need a parser and a script before removing anything."}');
    // The key went to the server and nowhere else.
    expect(turns[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    for (const file of filesUnder(home)) expect(readFileSync(file, 'utf8'), file).not.toContain(KEY);
  }, 300_000);
});

const TESTS = ['tests/test_serializer.py', 'tests/test_cli.py', 'tests/test_lexer.py'];
const testFiles = (id: string): TurnSpec => ({
  text: 'Writing down how I run the tests.',
  tools: [
    { id: `${id}a`, name: 'editor', input: { command: 'create', path: '/tmp/feature/test_files.txt', file_text: `${TESTS.join('\n')}\n` } },
    { id: `${id}b`, name: 'editor', input: { command: 'create', path: '/tmp/feature/test_script.sh', file_text: `#!/bin/bash\npython3 -m pytest -rA -p no:cacheprovider ${TESTS.join(' ')}\n` } },
    { id: `${id}c`, name: 'editor', input: { command: 'create', path: '/tmp/feature/test_parser.py', file_text: parser } },
  ],
  // Some servers say `stop` even when the turn calls tools.
  finishReason: 'stop',
});
const submitFeature = (id: string): TurnSpec => ({
  tools: [{ id, name: 'submit', input: { test_files: '/tmp/feature/test_files.txt', test_script: '/tmp/feature/test_script.sh', test_parser: '/tmp/feature/test_parser.py' } }],
  finishReason: 'stop',
});

describe('FeatAdd with the openai policy, through a server that sends no usage and whole arguments', () => {
  it('turns a feature that breaks tests into a valid bug, and one that breaks nothing into "no bug", showing tokens, not dollars', async () => {
    const variant: ServerVariant = { usage: 'never', split: 'whole' };
    await serve(
      [
        { reasoning: 'Short escapes are a nice feature.', tools: [{ id: 'f1', name: 'editor', input: { command: 'str_replace', path: 'knotcfg/serializer.py', old_str: 'out.append(f"\\\\u{ord(ch):04x}")', new_str: 'out.append(f"\\\\x{ord(ch):02x}")' } }], finishReason: 'stop' },
        testFiles('f2'),
        submitFeature('f3'),
        { text: 'Control characters are written as \\x07 instead of \\u0007.' },
        { text: '<reasoning>Output format changed.</reasoning><category>H</category>' },
      ],
      variant,
    );
    const home = newHome();
    const broke = await bugbench(home, ['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'featadd', '-n', '1', '--json']);
    expect(broke.exitCode, broke.stderr).toBe(0);
    const result = JSON.parse(broke.stdout);
    expect(result.yield).toEqual({ rollouts: 1, submitted: 1, featuresThatBroke: 1, valid: 1 });
    expect(result.bugs[0]).toMatchObject({ valid: true });
    const usage = readTrajectory(result.rollouts[0].trajectory).events.filter((e) => e.type === 'step-usage');
    expect(usage.length).toBe(3);
    for (const e of usage) expect(e.type === 'step-usage' && e.usage.estimated && e.usage.outputTokens > 0 && e.costUsd === 0).toBe(true);

    await server!.close();
    await serve(
      [
        { text: 'A helper that counts keys.', tools: [{ id: 'n1', name: 'editor', input: { command: 'create', path: 'knotcfg/stats.py', file_text: 'def count_keys(data):\n    return len(data)\n' } }] },
        testFiles('n2'),
        submitFeature('n3'),
      ],
      variant,
    );
    const none = await bugbench(home, ['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'featadd', '-n', '1']);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stdout).toMatch(/1 rollout\(s\), 0 submitted, 0 valid/);
    // A model priced at 0: its tokens, counted by bugbench, instead of $0.0000.
    expect(none.stderr).toMatch(/\[r1\] finished: submitted after 3 step\(s\), \d+ tokens \(estimated\), /);
    expect(none.stderr).not.toMatch(/finished: .*\$0\.0000/);
    const store = Store.open({ root: home });
    const rollouts = store.all('rollouts').filter((r) => r.status === 'no-bug');
    expect(rollouts).toHaveLength(1);
    expect(rollouts[0]!.detail).toMatch(/^no bug: the feature kept every test passing/);
  }, 400_000);
});

describe('solving with the openai policy', () => {
  it('gives a solved attempt through a 429 and a stream cut mid-tool-call and a failed one, and exports the solved trajectory with its reasoning and tool calls', async () => {
    const home = newHome();
    const imported = await bugbench(home, ['import', artifactPath('valid-two-files'), '--json'], false);
    expect(imported.exitCode, imported.stderr).toBe(0);
    const bug: string = JSON.parse(imported.stdout).id;
    const fix = reverseDiff(readFileSync(join(home, 'bugs', bug, 'bug_inject.diff'), 'utf8'));
    const doc = hereDoc(fix);
    const applyFix = { id: 'call_fix', name: 'bash', input: { command: `git apply ${doc.open}\n${doc.body}\ngit diff --stat` } };
    const mock = await serve([
      // attempt 1: rate limited, then the stream breaks off in the middle of the call, then it works
      { kind: 'http-error', status: 429, body: { error: { message: 'the engine queue is full', type: 'rate_limit', code: 429 } }, headers: { 'retry-after-ms': '50' } },
      { kind: 'turn', turn: { reasoning: 'Cut short.', tools: [{ id: 'call_cut', name: 'bash', input: { command: 'git apply --partial' } }] }, cutAfter: 12 },
      { reasoning: 'The exponent handling and the key quoting both regressed; the oracle tests say how they should behave.', text: 'Restoring both.', tools: [applyFix] },
      { reasoning: 'The diff touches exactly those two files.', tools: [{ id: 'call_submit', name: 'submit', input: {} }] },
      // attempt 2: gives up without a change
      { reasoning: 'I cannot see a problem.', text: 'Submitting as is.', tools: [{ id: 'call_giveup', name: 'submit', input: {} }] },
    ]);
    const child = await bugbench(home, ['solve', bug, '-k', '2', '--concurrency', '1', '--json']);
    expect(child.exitCode, child.stderr).toBe(0);
    const result = JSON.parse(child.stdout);
    expect(result.attempts.map((a: { solved: boolean; reward: number; solver: string }) => [a.solver, a.solved, a.reward])).toEqual([
      [MODEL, true, 1],
      [MODEL, false, -1],
    ]);
    expect(result.solveRate).toBe(0.5);
    const after = Store.open({ root: home });
    expect(after.get('attempts', result.attempts[0].id)).toMatchObject({ policy: 'openai', solver: MODEL, baseUrl: mock.url });
    expect(after.get('runs', result.runId)).toMatchObject({ kind: 'solve', policy: 'openai', model: MODEL, baseUrl: mock.url });
    // The retries are in the transcript; the broken turn is not in the conversation.
    const trajectory = readTrajectory(result.attempts[0].trajectory);
    const retries = trajectory.events.filter((e) => e.type === 'retry');
    expect(retries.map((e) => (e.type === 'retry' ? e.reason : ''))).toEqual([expect.stringMatching(/^429 the engine queue is full/), expect.any(String)]);
    expect(JSON.stringify(trajectory.messages)).not.toContain('call_cut');
    expect(mock.turnRequests).toHaveLength(5);

    const out = join(home, 'sft.jsonl');
    const exported = await bugbench(home, ['export', '--format', 'sft', '--status', 'valid', '--out', out, '--json'], false);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ bug_id: bug, attempt_id: result.attempts[0].id, solver: MODEL, model: { policy: 'openai', name: MODEL, base_url: mock.url } });
    const assistant = line.messages.filter((m: { role: string }) => m.role === 'assistant');
    expect(assistant[0]).toMatchObject({
      reasoning_content: 'The exponent handling and the key quoting both regressed; the oracle tests say how they should behave.',
      content: 'Restoring both.',
      tool_calls: [{ id: 'call_fix', type: 'function', function: { name: 'bash', arguments: JSON.stringify(applyFix.input) } }],
    });
    expect(assistant[1]).toMatchObject({ reasoning_content: 'The diff touches exactly those two files.', tool_calls: [{ function: { name: 'submit' } }] });
    expect(line.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
  }, 300_000);
});

describe('setup faults stop the run before anything is stored', () => {
  it('names a model the server does not serve, in one line, with no run recorded', async () => {
    await serve([]);
    const home = newHome();
    const child = await execa('node', [BIN, 'inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '--policy', 'openai', '--model', 'qwen3-ckpt-9999', '--base-url', server!.url], {
      env: { BUGBENCH_HOME: home, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: KEY },
      reject: false,
    });
    expect(child.exitCode).toBe(1);
    expect(child.stderr.trim()).toBe(`bugbench: the server at ${server!.url} does not serve the model "qwen3-ckpt-9999"; it serves "${MODEL}", "other-ckpt" (pass one with --model)`);
    expect(existsSync(join(home, 'runs'))).toBe(false);
    expect(server!.turnRequests).toHaveLength(0);
  });

  it('says in one line that the server takes no tool calls and what to start it with, with no run recorded', async () => {
    await serve([], { tools: false, oldErrors: true });
    const home = newHome();
    const child = await bugbench(home, ['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'featadd']);
    expect(child.exitCode).toBe(1);
    expect(child.stderr.trim().split('\n')).toHaveLength(1);
    expect(child.stderr).toMatch(/^bugbench: the server at \S+ does not take tool calls \(HTTP 400: "auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set\); start it with tool calling on — vLLM: --enable-auto-tool-choice --tool-call-parser/);
    expect(existsSync(join(home, 'runs'))).toBe(false);
    const store = Store.open({ root: home });
    expect(store.all('runs')).toEqual([]);
  });

  it('asks for the server when none is given', async () => {
    const home = newHome();
    const child = await execa('node', [BIN, 'inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '--policy', 'openai', '--model', MODEL], {
      env: { BUGBENCH_HOME: home, OPENAI_BASE_URL: '' },
      reject: false,
    });
    expect(child.exitCode).toBe(2);
    expect(child.stderr.trim()).toBe(
      'bugbench: the openai policy needs its server: pass --base-url URL (e.g. http://localhost:8000/v1), set OPENAI_BASE_URL, or put "openai": {"baseUrl": …} in bugbench.config.json',
    );
    expect(existsSync(join(home, 'runs'))).toBe(false);
  });
});
