/**
 * Issue 29, item 1: the offline injector on an image with no python3 (Go's
 * official images, Multi-SWE-bench's). It writes the parser the artifact
 * needs, but runs neither it nor the helper: it shows each run's result lines
 * with grep and reads them itself, as a model reads a tool's output.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Action, ToolCall } from '../../../src/agent/offline/offline-model.js';
import { compareRuns, readResults, showResults } from '../../../src/agent/offline/run-reading.js';
import { loadGrammars } from '../../../src/agent/offline/syntax.js';
import { drive } from './offline-drive.js';

beforeAll(async () => {
  await loadGrammars();
});

const PKG = 'example.com/bits';

/** go test -v's output for one package, with some output of the tests between the frames. */
function goLog(results: Record<string, 'PASS' | 'FAIL'>): string {
  const failed = Object.values(results).includes('FAIL');
  return [
    ...Object.entries(results).flatMap(([test, word]) => [`=== RUN   ${test}`, ...(word === 'FAIL' ? [`    bits_test.go:6: ${test} saw the wrong count`] : []), `--- ${word}: ${test} (0.00s)`]),
    failed ? 'FAIL' : 'PASS',
    failed ? `FAIL\t${PKG}\t0.004s` : `ok  \t${PKG}\t0.004s`,
  ].join('\n');
}

/** What the container answers a command that shows a run's results: the lines grep keeps of its log, after the heading. */
function shown(command: string, log: string, name: string): string {
  const frames = /grep -aE '([^']+)'/.exec(command)?.[1];
  const kept = frames ? log.split('\n').filter((line) => new RegExp(frames.replace('[[:space:]]', '\\s')).test(line)) : log.split('\n');
  return [`== the results in ${name}.log ==`, ...kept, '[exit code 0]'].join('\n');
}

describe('the offline injector where the image has no python3', () => {
  const files = {
    'go.mod': `module ${PKG}\n\ngo 1.19\n`,
    'bits.go': 'package bits\n\n// IsValid says whether n is a valid count.\nfunc IsValid(n int) bool {\n\tif n < 0 {\n\t\treturn false\n\t}\n\treturn n <= 1000\n}\n',
    'bits_test.go': [
      'package bits',
      '',
      'import "testing"',
      '',
      'func TestIsValid(t *testing.T) {',
      '\tif !IsValid(3) {',
      '\t\tt.Fatal("3 is valid")',
      '\t}',
      '}',
      '',
      'func TestNegative(t *testing.T) {',
      '\tif IsValid(-1) {',
      '\t\tt.Fatal("-1 is not valid")',
      '\t}',
      '}',
      '',
    ].join('\n'),
  };
  const original = goLog({ TestIsValid: 'PASS', TestNegative: 'PASS' });
  const broken = goLog({ TestIsValid: 'FAIL', TestNegative: 'PASS' });

  const answer = (call: ToolCall): string | undefined => {
    if (call.name !== 'bash') return undefined;
    const command = String(call.input.command);
    if (command.includes('base64 -w0')) return `${Object.entries(files).map(([path, text]) => `FILE ${path} ${Buffer.from(text).toString('base64')}`).join('\n')}\npython3: not installed`;
    if (command.includes('original.log')) return `PASS\nok  \t${PKG}\t0.004s\nelapsed_ms 900\n${shown(command, original, 'original')}`;
    for (const name of ['trial', 'buggy']) if (command.includes(`${name}.log`)) return shown(command, broken, name);
    return undefined;
  };

  it('writes the parser for the artifact, runs no python3, reads the runs itself and submits', async () => {
    const { actions, closing } = await drive(files, {}, { answer });
    const calls = actions.flatMap((a: Action) => a.calls);
    const commands = calls.flatMap((c) => (c.name === 'bash' ? [String(c.input.command)] : []));
    expect(commands.filter((c) => c.includes('python3') && !c.includes('command -v python3'))).toEqual([]);
    const written = calls.filter((c) => c.name === 'editor' && c.input.command === 'create').map((c) => c.input.path);
    expect(written).toContain('/tmp/artifact/test_parser.py');
    expect(written).not.toContain('/tmp/bugbench_offline/helper.py');
    expect(actions.some((a) => a.thought.includes('There is no python3 here'))).toBe(true);
    // The broken test was read from the buggy run's lines and deleted from its file.
    const deleting = actions.find((a) => a.thought.startsWith('Deleting '));
    expect(deleting?.thought).toBe('Deleting TestIsValid from bits_test.go.');
    expect(calls.at(-1)?.name).toBe('submit');
    expect(closing).toBe('Submitted.');
  });

  it('stops with the log\'s end when the original run cannot be read, never guessing', async () => {
    const unreadable = (call: ToolCall) =>
      call.name === 'bash' && String(call.input.command).includes('original.log') && !String(call.input.command).startsWith('tail -n 15')
        ? `elapsed_ms 900\n== the results in original.log ==\n=== RUN   TestIsValid\n--- PASS: TestIsValid (0.00s)\n[exit code 0]`
        : answer(call);
    const { closing } = await drive(files, {}, { answer: unreadable, injector: { minPassingTests: 1 } });
    expect(closing).toMatch(/^Only 0 test\(s\) pass on the original code/);
  });
});

describe('reading a run\'s results', () => {
  it('reads only what follows the heading, so a tail of the log before it is not read twice', () => {
    const log = goLog({ TestA: 'PASS', TestB: 'FAIL' });
    const output = `--- FAIL: TestB (0.00s)\nFAIL\nFAIL\t${PKG}\t0.004s\n${shown(showResults('buggy', '^=== (RUN|PAUSE|CONT|NAME) |^ *--- (PASS|FAIL|SKIP): |^(ok|FAIL|\\?)[[:space:]]'), log, 'buggy')}`;
    expect(readResults(output, 'buggy')?.results).toEqual({ [`${PKG}/TestA`]: 'passed', [`${PKG}/TestB`]: 'failed' });
    expect(readResults(output, 'trial')).toBeUndefined();
  });

  it('compares as the helper does: what passed before and does not now, and how many are missing', () => {
    const compared = compareRuns({ a: 'passed', b: 'passed', c: 'failed', d: 'passed' }, { a: 'passed', b: 'failed', c: 'failed' });
    expect(compared).toEqual({ broken_count: 2, broken: ['b', 'd'], broken_files: {}, missing: 1 });
  });
});
