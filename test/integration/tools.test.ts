import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_OPTIONS, SOLVER_SUBMIT, ToolSet } from '../../src/agent/tools.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { sandboxWithRepo } from '../helpers/sandbox.js';

let sandbox: Sandbox;
let tools: ToolSet;
const submissions: unknown[] = [];

beforeAll(async () => {
  sandbox = await sandboxWithRepo('test-tools');
  tools = new ToolSet(sandbox, {
    ...DEFAULT_TOOL_OPTIONS,
    maxOutputChars: 2000,
    submit: {
      definition: SOLVER_SUBMIT,
      handle: async (input) => {
        submissions.push(input);
        return typeof input.patch === 'string' ? { ok: true, files: [input.patch] } : { ok: false, error: 'no patch path' };
      },
    },
  });
});
afterAll(async () => {
  await sandbox?.remove();
});

describe('the agent tools in a container', () => {
  it('runs bash with its exit code and shortens long output', async () => {
    const ok = await tools.execute('bash', { command: 'echo hi; echo err >&2; exit 4' });
    expect(ok).toMatchObject({ isError: false, exitCode: 4 });
    expect(ok.output).toBe('hi\n\nerr\n\n[exit code 4]');
    const long = await tools.execute('bash', { command: 'seq 1 100000' });
    expect(long.output.length).toBeLessThan(2300);
    expect(long.output).toMatch(/^1\n2\n/);
    expect(long.output).toMatch(/100000\n\n\[exit code 0\]$/);
  });

  it('kills a bash command at its timeout and says so', async () => {
    const result = await tools.execute('bash', { command: 'sleep 30', timeout: 1 });
    expect(result.output).toMatch(/\[killed after 1 s\]/);
  });

  it('views, creates, replaces and inserts', async () => {
    expect((await tools.execute('editor', { command: 'view', path: 'calc.py', view_range: [1, 2] })).output).toBe('     1\tdef add(a, b):\n     2\t    return a + b');
    expect((await tools.execute('editor', { command: 'view', path: '/repo' })).output).toContain('./calc.py');
    await tools.execute('editor', { command: 'create', path: 'pkg/new.py', file_text: 'x = 1\n' });
    expect(await sandbox.readText('pkg/new.py')).toBe('x = 1\n');
    const replaced = await tools.execute('editor', { command: 'str_replace', path: 'calc.py', old_str: 'return a - b', new_str: 'return a - b  # subtract' });
    expect(replaced).toMatchObject({ isError: false, output: 'Replaced 1 occurrence in calc.py at line 6' });
    await tools.execute('editor', { command: 'insert', path: 'calc.py', insert_line: 0, new_str: '"""Calculator."""' });
    expect((await sandbox.readText('calc.py')).split('\n').slice(0, 2)).toEqual(['"""Calculator."""', 'def add(a, b):']);
    await sandbox.reset();
  });

  it('answers mistakes with an error result instead of failing', async () => {
    await sandbox.writeFile('dup.py', 'a = 1\na = 1\n');
    const ambiguous = await tools.execute('editor', { command: 'str_replace', path: 'dup.py', old_str: 'a = 1', new_str: 'a = 2' });
    expect(ambiguous).toEqual({ isError: true, output: 'old_str occurs 2 times in dup.py; include more context so it is unique' });
    expect((await tools.execute('editor', { command: 'str_replace', path: 'dup.py', old_str: 'zzz', new_str: '' })).output).toBe('old_str does not occur in dup.py');
    expect((await tools.execute('editor', { command: 'view', path: 'nope.py' })).isError).toBe(true);
    expect((await tools.execute('editor', { command: 'frobnicate', path: 'dup.py' })).output).toMatch(/unknown editor command/);
    expect((await tools.execute('teleport', {})).output).toMatch(/no tool named "teleport"/);
    expect((await tools.execute('bash', 'ls')).output).toMatch(/must be a JSON object/);
    await sandbox.reset();
  });

  it('keeps an executable file executable through an edit', async () => {
    await sandbox.writeFile('run.sh', '#!/bin/sh\necho one\n', 0o755);
    await tools.execute('editor', { command: 'str_replace', path: 'run.sh', old_str: 'one', new_str: 'two' });
    expect((await sandbox.exec('./run.sh')).stdout).toBe('two\n');
    await sandbox.reset();
  });

  it('cuts a long view at the output cap, says how to see the rest, and follows links inside the repository', async () => {
    await sandbox.run('seq 1 5000 > long.txt && ln -s calc.py alias.py');
    const whole = await tools.execute('editor', { command: 'view', path: 'long.txt' });
    expect(whole.isError).toBe(false);
    expect(whole.output.length).toBeLessThan(2300);
    expect(whole.output).toMatch(/^     1\t1\n     2\t2\n/);
    expect(whole.output).toMatch(/  5000\t5000\n\[the view stops at 2000 characters; ask for a view_range to see the rest\]$/);
    expect((await tools.execute('editor', { command: 'view', path: 'long.txt', view_range: [4999, -1] })).output).toBe('  4999\t4999\n  5000\t5000');
    expect((await tools.execute('editor', { command: 'view', path: 'alias.py', view_range: [1, 1] })).output).toBe('     1\tdef add(a, b):');
    await sandbox.reset();
  });

  it('passes submit to its handler and reports refusals', async () => {
    expect(await tools.execute('submit', { patch: '/tmp/fix.diff' })).toMatchObject({ isError: false, submitted: ['/tmp/fix.diff'] });
    expect(await tools.execute('submit', {})).toMatchObject({ isError: true, output: 'Submission refused: no patch path' });
  });
});

describe('editor insert at the end of a file', () => {
  it('keeps the final newline and counts lines as a person would', async () => {
    await sandbox.writeFile('lines.txt', 'a\nb\n');
    const result = await tools.execute('editor', { command: 'insert', path: 'lines.txt', insert_line: 2, new_str: 'c' });
    expect(result.isError).toBe(false);
    expect(await sandbox.readText('lines.txt')).toBe('a\nb\nc\n');
    expect((await tools.execute('editor', { command: 'insert', path: 'lines.txt', insert_line: 4, new_str: 'x' })).output).toBe('insert_line must be between 0 and 3');
    await sandbox.reset();
  });
});
