/**
 * Issue 34, items 21 and 22: weakenings the offline injector must not write.
 * On jsdom/webidl-conversions it wrote `git diff -- <no files>` (the bug
 * itself) as the weakening; on toolz it deleted test_is_valid, which other
 * tests call, so untouched tests failed with NameError.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../../src/agent/offline/offline-model.js';
import { loadGrammars } from '../../../src/agent/offline/syntax.js';
import { weakeningOutsideReason } from '../../../src/bugs/checks/static-checks.js';
import { PACKAGE_ROOT } from '../../../src/paths.js';
import { drive } from './offline-drive.js';

beforeAll(async () => {
  await loadGrammars();
});

/** Answers the runs after the original one: every comparison breaks `broken`, and the buggy run's results are `buggy`. */
function runs(broken: string[], buggy: Record<string, string>) {
  return (call: ToolCall): string | undefined => {
    if (call.name !== 'bash') return undefined;
    const command = String(call.input.command);
    if (command.includes(' compare ')) return `RESULT ${JSON.stringify({ broken_count: broken.length, broken, broken_files: {}, missing: 0 })}`;
    if (command.includes(' results ') && command.includes('buggy.json')) return `RESULT ${JSON.stringify(buggy)}`;
    return undefined;
  };
}

const bashCommands = (actions: { calls: ToolCall[] }[]) => actions.flatMap((a) => a.calls).flatMap((c) => (c.name === 'bash' ? [String(c.input.command)] : []));

describe('a weakening from no test file', () => {
  const files = {
    'package.json': JSON.stringify({ name: 'clamp', type: 'module', scripts: { test: 'node --test test/' } }),
    'lib/index.js': 'export function clamp(n, low, high) {\n  if (n < low) return low;\n  if (n > high) return high;\n  return n;\n}\n',
    // Names built at run time: the injector cannot tell which file declares "clamp 1".
    'test/index.test.js': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert';",
      "import { clamp } from '../lib/index.js';",
      '',
      "test('clamp keeps its bounds', () => assert.equal(clamp(20, 0, 10), 10));",
      'for (const n of [1, 2, 3]) {',
      '  test(`clamp ${n}`, () => assert.equal(clamp(n, 0, 10), n));',
      '}',
      '',
    ].join('\n'),
  };
  const original = { 'clamp keeps its bounds': 'passed', 'clamp 1': 'passed', 'clamp 2': 'passed', 'clamp 3': 'passed' };

  it('is never written: the rollout stops and says why', async () => {
    const answer = runs(['clamp 1', 'clamp 2'], { ...original, 'clamp 1': 'failed', 'clamp 2': 'failed' });
    const { actions, closing } = await drive(files, original, { answer });
    expect(closing).toContain('I found none of the 2 broken test(s) ("clamp 1", "clamp 2") among the tests the test files declare');
    expect(closing).toContain("a weakening of no file would be the bug's own change, so I stop here");
    expect(bashCommands(actions).some((c) => c.includes('test_weaken.diff'))).toBe(false);
    expect(actions.flatMap((a) => a.calls).some((c) => c.name === 'submit')).toBe(false);
  });

  it('is refused by the test-files check with the reason', () => {
    expect(weakeningOutsideReason(['lib/index.js'], ['lib/index.js'])).toBe(
      "test_weaken.diff touches files not in test_files.txt: lib/index.js — it holds the bug's own change to lib/index.js (the files bug_inject.diff changes); a weakening may change only the listed test files",
    );
    expect(weakeningOutsideReason(['test/helpers.js'], ['lib/index.js'])).toContain('list them in test_files.txt or leave them out of the diff');
  });
});

describe('a test that other tests call', () => {
  const GO_TEST = `package bits

import "testing"

func TestIsValid(t *testing.T) {
	if !IsValid(3) {
		t.Fatal("3 is valid")
	}
}

func TestCheckAll(t *testing.T) {
	TestIsValid(t)
	if IsValid(-1) {
		t.Fatal("-1 is not valid")
	}
}
`;
  const files = {
    'go.mod': 'module example.com/bits\n\ngo 1.21\n',
    'bits.go': 'package bits\n\n// IsValid says whether n is a valid count.\nfunc IsValid(n int) bool {\n\tif n < 0 {\n\t\treturn false\n\t}\n\treturn n <= 1000\n}\n',
    'bits_test.go': GO_TEST,
  };
  const original = { 'example.com/bits/TestIsValid': 'passed', 'example.com/bits/TestCheckAll': 'passed' };

  it('is not deleted from Go tests: the rollout stops and names the caller', async () => {
    const answer = runs(['example.com/bits/TestIsValid'], { ...original, 'example.com/bits/TestIsValid': 'failed' });
    const { actions, closing } = await drive(files, original, { answer });
    expect(closing).toBe(
      'I cannot delete the tests that catch the bug: other code in the tests calls TestIsValid (used at bits_test.go:12). Deleting them would break tests that do not see the bug, so I stop here.',
    );
    const edits = actions.flatMap((a) => a.calls).filter((c) => c.name === 'editor' && String(c.input.path).endsWith('_test.go'));
    expect(edits).toEqual([]);
  });

  it('is not deleted from Go tests when a helper file of the package calls it', async () => {
    const alone = GO_TEST.replace('\tTestIsValid(t)\n', '');
    const helper = 'package bits\n\nimport "testing"\n\nfunc checkAll(t *testing.T) {\n\tTestIsValid(t)\n}\n';
    const answer = runs(['example.com/bits/TestIsValid'], { ...original, 'example.com/bits/TestIsValid': 'failed' });
    const { closing } = await drive({ ...files, 'bits_test.go': alone, 'helpers_test.go': helper }, original, { answer });
    expect(closing).toContain('other code in the tests calls TestIsValid (used at helpers_test.go:6)');
  });

  it('is deleted from Go tests when nothing else calls it', async () => {
    const alone = GO_TEST.replace('\tTestIsValid(t)\n', '');
    const answer = runs(['example.com/bits/TestIsValid'], { ...original, 'example.com/bits/TestIsValid': 'failed' });
    const { actions, closing } = await drive({ ...files, 'bits_test.go': alone }, original, { answer });
    expect(closing).toBe('Submitted.');
    expect(actions.map((a) => a.thought)).toContain('Deleting TestIsValid from bits_test.go.');
  });

  describe('in Python (the helper the agent runs)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bugbench-helper-'));
    const helper = join(PACKAGE_ROOT, 'data', 'offline', 'agent_helper.py');
    const TESTS = [
      'from toolz import isvalid',
      '',
      '',
      'def test_is_valid():',
      '    assert isvalid(3)',
      '',
      '',
      'def test_curried():',
      '    test_is_valid()',
      '    assert not isvalid(-1)',
      '',
      '',
      'def test_other():',
      '    assert isvalid(4)',
      '',
    ].join('\n');
    const dropBroken = (broken: string[]) => {
      mkdirSync(join(dir, 'tests'), { recursive: true });
      writeFileSync(join(dir, 'tests/test_toolz.py'), TESTS);
      writeFileSync(join(dir, 'tests/test_more.py'), 'from tests.test_toolz import test_other\n\n\ndef test_more():\n    test_other()\n');
      const ids = ['tests/test_toolz.py::test_is_valid', 'tests/test_toolz.py::test_curried', 'tests/test_toolz.py::test_other'];
      writeFileSync(join(dir, 'original.json'), JSON.stringify(Object.fromEntries(ids.map((id) => [id, 'passed']))));
      writeFileSync(join(dir, 'buggy.json'), JSON.stringify(Object.fromEntries(ids.map((id) => [id, broken.includes(id) ? 'failed' : 'passed']))));
      const out = execFileSync('python3', [helper, 'drop-broken', 'original.json', 'buggy.json', 'tests/test_toolz.py', 'tests/test_more.py'], { cwd: dir, encoding: 'utf8' });
      return JSON.parse(out.trim().replace(/^RESULT /, '')) as { dropped: number; used?: Record<string, string[]> };
    };
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps a test another test calls, or imports, and says where', () => {
      expect(dropBroken(['tests/test_toolz.py::test_is_valid'])).toEqual({ files: {}, dropped: 0, used: { test_is_valid: ['tests/test_toolz.py:9'] } });
      expect(readFileSync(join(dir, 'tests/test_toolz.py'), 'utf8')).toBe(TESTS);
      expect(dropBroken(['tests/test_toolz.py::test_other']).used).toEqual({ test_other: ['tests/test_more.py:1', 'tests/test_more.py:5'] });
    });

    it('deletes a test and its callers together when both broke', () => {
      expect(dropBroken(['tests/test_toolz.py::test_is_valid', 'tests/test_toolz.py::test_curried'])).toMatchObject({ dropped: 2 });
      expect(readFileSync(join(dir, 'tests/test_toolz.py'), 'utf8')).not.toContain('test_is_valid');
    });
  });
});
