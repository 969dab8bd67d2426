/**
 * The oracle the offline Python injector writes: a suite that runs in seconds
 * is taken whole (so every bug of an image shares the checks' original runs),
 * a slow one only in the files that see the bug; and its weakening leaves the
 * failures of one test file in place when they span two or more.
 */
import { describe, expect, it } from 'vitest';
import type { Action, ToolCall } from '../../../src/agent/offline/offline-model.js';
import { sparedFile } from '../../../src/agent/offline/python-kit.js';
import { drive } from './offline-drive.js';

const files = {
  'pkg/__init__.py': '',
  'pkg/alpha.py': 'def f(x):\n    y = x + 1\n    return y\n',
  'pkg/beta.py': 'def g(x):\n    y = x * 2\n    return y\n',
  'tests/test_alpha.py': 'from pkg.alpha import f\n\n\ndef test_f():\n    assert f(1) == 2\n\n\ndef test_f2():\n    assert f(2) == 3\n',
  'tests/test_beta.py': 'from pkg.beta import g\n\n\ndef test_g():\n    assert g(1) == 2\n',
  'tests/test_gamma.py': 'def test_h():\n    assert True\n',
};
const original = { passed: 4, failed: 0, passed_by_file: { 'tests/test_alpha.py': 2, 'tests/test_beta.py': 1, 'tests/test_gamma.py': 1 } };
const BROKEN: Record<string, string[]> = {
  'pkg/alpha.py': ['tests/test_alpha.py::test_f', 'tests/test_alpha.py::test_f2'],
  'pkg/beta.py': ['tests/test_beta.py::test_g'],
};

/** Answers the listing with one function a code file, and each run with what the changes of its step break. */
function answer(elapsedMs: number) {
  return (call: ToolCall, action: Action): string | undefined => {
    if (call.name !== 'bash') return undefined;
    const command = String(call.input.command);
    if (command.includes('original.log')) return `elapsed_ms ${elapsedMs}\nRESULT ${JSON.stringify(original)}`;
    if (command.includes(' functions ')) {
      return `RESULT ${JSON.stringify([
        { file: 'pkg/alpha.py', name: 'f', lines: 2 },
        { file: 'pkg/beta.py', name: 'g', lines: 2 },
      ])}`;
    }
    if (command.includes(' compare ')) {
      const broken = Object.entries(BROKEN).flatMap(([file, ids]) => (action.thought.includes(file) ? ids : []));
      const byFile: Record<string, number> = {};
      for (const id of broken) byFile[id.split('::')[0]!] = (byFile[id.split('::')[0]!] ?? 0) + 1;
      return `RESULT ${JSON.stringify({ broken_count: broken.length, broken, broken_files: byFile, missing: 0 })}`;
    }
    if (command.includes(' drop-broken ')) return `RESULT ${JSON.stringify({ files: { 'tests/test_alpha.py': 2 }, dropped: 2 })}`;
    return undefined;
  };
}

const created = (actions: Action[], name: string) =>
  actions.flatMap((a) => a.calls).find((c) => c.name === 'editor' && String(c.input.path).endsWith(name))?.input.file_text as string | undefined;
const commands = (actions: Action[]) => actions.flatMap((a) => a.calls).flatMap((c) => (c.name === 'bash' ? [String(c.input.command)] : []));

describe('the offline Python oracle', () => {
  it('is the whole suite when it ran in seconds, and says why', async () => {
    const { actions } = await drive(files, {}, { injector: { strategy: 'removal', minChangedFiles: 2 }, answer: answer(1_200) });
    expect(created(actions, 'test_files.txt')).toBe('tests/test_alpha.py\ntests/test_beta.py\ntests/test_gamma.py\n');
    expect(created(actions, 'test_script.sh')).toContain('tests/test_alpha.py tests/test_beta.py tests/test_gamma.py');
    expect(actions.map((a) => a.thought).join('\n')).toContain('The whole suite ran in 1.2 s, so the oracle tests are all 3 test files');
  });

  it('is the files that see the bug when the suite is slow', async () => {
    const { actions } = await drive(files, {}, { injector: { strategy: 'removal', minChangedFiles: 2 }, answer: answer(60_000) });
    expect(created(actions, 'test_files.txt')).toBe('tests/test_alpha.py\ntests/test_beta.py\n');
  });

  it("leaves the failures of the file with the fewest in place, and says so", async () => {
    const { actions } = await drive(files, {}, { injector: { strategy: 'removal', minChangedFiles: 2 }, answer: answer(1_200) });
    const drop = commands(actions).find((c) => c.includes(' drop-broken '));
    expect(drop).toContain("--spare 'tests/test_beta.py'");
    expect(actions.map((a) => a.thought).join('\n')).toContain('deleting the 2 test(s) that would give the bug away and leaving the 1 in tests/test_beta.py to fail');
  });
});

describe('the spared file', () => {
  it('is the one with the fewest broken tests, the first by name on a tie, and none when one file holds them all', () => {
    expect(sparedFile({ 'tests/a.py': 3, 'tests/c.py': 1, 'tests/b.py': 1 })).toBe('tests/b.py');
    expect(sparedFile({ 'tests/a.py': 3 })).toBeUndefined();
    expect(sparedFile({})).toBeUndefined();
  });
});
