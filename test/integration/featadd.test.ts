import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDiffFiles } from '../../src/bugs/diff.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { Store } from '../../src/store/store.js';
import { BIN } from '../helpers/cli.js';
import { MockAnthropic, streamOf, type TurnSpec } from '../helpers/mock-anthropic.js';

const KEY = 'sk-ant-test-key-0000';
let server: MockAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const parser = readFileSync(join(PACKAGE_ROOT, 'data', 'parsers', 'pytest_parser.py'), 'utf8');
const TESTS = ['tests/test_serializer.py', 'tests/test_cli.py', 'tests/test_lexer.py'];

/** How the agent leaves its test files: written with the editor, no diff among them. */
const testFiles = (id: string): TurnSpec => ({
  text: 'Writing down how I run the tests, then running them.',
  tools: [
    { id: `${id}a`, name: 'editor', input: { command: 'create', path: '/tmp/feature/test_files.txt', file_text: `${TESTS.join('\n')}\n` } },
    { id: `${id}b`, name: 'editor', input: { command: 'create', path: '/tmp/feature/test_script.sh', file_text: `#!/bin/bash\npython3 -m pytest -rA -p no:cacheprovider ${TESTS.join(' ')}\n` } },
    { id: `${id}c`, name: 'editor', input: { command: 'create', path: '/tmp/feature/test_parser.py', file_text: parser } },
    { id: `${id}d`, name: 'bash', input: { command: 'bash /tmp/feature/test_script.sh | tail -n 3' } },
  ],
});
const submit = (id: string): TurnSpec => ({
  text: 'The feature is done.',
  tools: [{ id, name: 'submit', input: { test_files: '/tmp/feature/test_files.txt', test_script: '/tmp/feature/test_script.sh', test_parser: '/tmp/feature/test_parser.py' } }],
});

async function inject(home: string, script: TurnSpec[]) {
  server = await new MockAnthropic(script.map((turn) => streamOf(turn)), KEY).start();
  const child = await execa('node', [BIN, 'inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'featadd', '--policy', 'anthropic', '-n', '1', '--json'], {
    env: { BUGBENCH_HOME: home, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url },
    reject: false,
    timeout: 240_000,
  });
  return { exitCode: child.exitCode, stderr: child.stderr, result: JSON.parse(child.stdout || '{}'), requests: server.messageRequests };
}

describe('FeatAdd: the bug is what a feature broke, found by bugbench', () => {
  it('turns a feature that breaks two tests into a valid bug whose weakening deletes exactly those tests', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-featadd-'));
    const { exitCode, stderr, result, requests } = await inject(home, [
      { text: 'I will add compact control-character escapes and key counts to `check`.', tools: [{ id: 'toolu_f1', name: 'bash', input: { command: 'ls knotcfg && git log --oneline | head -n 3' } }] },
      {
        text: 'Short escapes in the serializer first.',
        tools: [{ id: 'toolu_f2', name: 'editor', input: { command: 'str_replace', path: 'knotcfg/serializer.py', old_str: 'out.append(f"\\\\u{ord(ch):04x}")', new_str: 'out.append(f"\\\\x{ord(ch):02x}")' } }],
      },
      {
        text: 'Now `check` reports how many keys a good file has.',
        tools: [
          { id: 'toolu_f3', name: 'editor', input: { command: 'str_replace', path: 'knotcfg/cli.py', old_str: '                load(name, variables=variables)', new_str: '                data = load(name, variables=variables)' } },
          { id: 'toolu_f4', name: 'editor', input: { command: 'str_replace', path: 'knotcfg/cli.py', old_str: 'print(f"{name}: ok")', new_str: 'print(f"{name}: ok ({len(data)} keys)")' } },
        ],
      },
      testFiles('toolu_f5'),
      submit('toolu_f6'),
      // The valid bug's analysis: a report and a category from the model.
      { text: 'Escapes of control characters changed\n\nStrings with a bell character are written as \\x07.' },
      { text: '<reasoning>Output no longer follows the format the tests expect.</reasoning><category>H</category>' },
    ]);
    expect(exitCode, stderr).toBe(0);
    expect(result.yield).toEqual({ rollouts: 1, submitted: 1, featuresThatBroke: 1, valid: 1 });
    const [bug] = result.bugs;
    expect(bug).toMatchObject({ valid: true, status: 'valid' });
    // The agent never wrote a diff: bugbench took the code change and wrote the weakening.
    const bugDiff = readFileSync(join(bug.artifactDir, 'bug_inject.diff'), 'utf8');
    expect(parseDiffFiles(bugDiff).map((f) => f.newPath).sort()).toEqual(['knotcfg/cli.py', 'knotcfg/serializer.py']);
    const weaken = readFileSync(join(bug.artifactDir, 'test_weaken.diff'), 'utf8');
    const deleted = weaken.split('\n').filter((l) => /^-def test_/.test(l)).map((l) => /def (test_\w+)/.exec(l)![1]);
    expect(deleted.sort()).toEqual(['test_check_reports_ok_and_errors', 'test_format_string_escapes_control_characters']);
    expect(weaken.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'))).toEqual([]);
    const record = Store.open({ root: home }).get('bugs', bug.id)!;
    expect(record).toMatchObject({ strategy: 'featadd', check: { failToPass: 2 }, analysis: { category: 'H' } });
    const meta = JSON.parse(readFileSync(join(bug.artifactDir, 'meta.json'), 'utf8'));
    expect(meta.prompt).toBe('featadd');
    // The agent was asked for a working feature, never for breakage.
    const task = requests[0]!.body!.messages as { content: string | { text: string }[] }[];
    const text = typeof task[0]!.content === 'string' ? task[0]!.content : task[0]!.content.map((b) => b.text).join('');
    expect(text).toMatch(/must keep working/);
    expect(text).not.toMatch(/break|test_weaken/i);
  }, 300_000);

  it('ends a feature that breaks nothing as "no bug", exit 0, with its trajectory', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-featadd-'));
    const { exitCode, stderr, result } = await inject(home, [
      {
        text: 'A small, safe feature: a helper that counts the keys of a loaded document.',
        tools: [
          {
            id: 'toolu_n1',
            name: 'editor',
            input: {
              command: 'create',
              path: 'knotcfg/stats.py',
              file_text: 'def count_keys(data):\n    """How many keys a mapping holds, nested tables included."""\n    return sum(1 + (count_keys(v) if isinstance(v, dict) else 0) for v in data.values())\n',
            },
          },
        ],
      },
      testFiles('toolu_n2'),
      submit('toolu_n3'),
    ]);
    expect(exitCode, stderr).toBe(0);
    expect(result.bugs).toEqual([]);
    expect(result.yield).toEqual({ rollouts: 1, submitted: 1, featuresThatBroke: 0, valid: 0 });
    expect(result.rollouts[0]).toMatchObject({ reason: 'no-bug', bugId: null });
    expect(result.rollouts[0].detail).toMatch(/^no bug: the feature kept every test passing/);
    expect(existsSync(result.rollouts[0].trajectory)).toBe(true);
    expect(readFileSync(result.rollouts[0].trajectory, 'utf8')).toMatch(/"type":"submitted"/);
  }, 300_000);
});
