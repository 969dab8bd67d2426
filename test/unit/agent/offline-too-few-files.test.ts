/**
 * A bug takes its files from the injector's candidates: when they lie in
 * fewer code files than --min-changed-files asks, the injector says so and
 * stops before its first trial (each a run of the whole suite) instead of
 * trying them all in vain.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGrammars } from '../../../src/agent/offline/syntax.js';
import { drive } from './offline-drive.js';

beforeAll(async () => {
  await loadGrammars();
});

const FILES = {
  'package.json': JSON.stringify({ name: 'clamp', type: 'module', scripts: { test: 'node --test test/' } }),
  'lib/byte.js': 'export function byte(n) {\n  if (n < 0) return 0;\n  return n > 255 ? 255 : n;\n}\n',
  'lib/percent.js': 'export function percent(n) {\n  if (n < 0) return 0;\n  return n > 100 ? 100 : n;\n}\n',
  'test/clamp.test.js': "import { test } from 'node:test';\nimport { byte } from '../lib/byte.js';\nimport { percent } from '../lib/percent.js';\ntest('byte', () => byte(1));\ntest('percent', () => percent(1));\n",
};
const RESULTS = { byte: 'passed', percent: 'passed' };
const commands = (actions: { calls: { name: string; input: Record<string, unknown> }[] }[]) => actions.flatMap((a) => a.calls.map((c) => String(c.input.command ?? '')));

describe('candidates in fewer files than a bug needs', () => {
  it('stops before any trial and says how many files the candidates are in', async () => {
    const { actions, closing } = await drive(FILES, RESULTS, { injector: { strategy: 'removal', minChangedFiles: 3 } });
    expect(closing).toBe('My removal candidates are in 2 code file(s), fewer than the 3 needed, so I stop here without trying them.');
    expect(commands(actions).filter((c) => c.includes('trial.log'))).toEqual([]);
  });

  it('tries them when the files are enough', async () => {
    const { actions } = await drive(FILES, RESULTS, { injector: { strategy: 'removal', minChangedFiles: 2 }, stop: (action) => action.calls.some((c) => String(c.input.command ?? '').includes('trial.log')) });
    expect(commands(actions).some((c) => c.includes('trial.log'))).toBe(true);
  });
});

describe('the history of a shallow clone', () => {
  it('is named as the reason there is little to undo', async () => {
    const answer = (call: { name: string; input: Record<string, unknown> }) => {
      const command = String(call.input.command ?? '');
      return command.includes('git log --no-merges') ? `commit ${'a'.repeat(40)} Fix rounding of bytes\nlib/byte.js\nshallow: true\n` : undefined;
    };
    const { closing } = await drive(FILES, RESULTS, { injector: { strategy: 'history', minChangedFiles: 2 }, answer });
    expect(closing).toBe('The repository is a shallow clone: its history holds 1 commit(s), so there are few fixes to undo. My history candidates are in 1 code file(s), fewer than the 2 needed, so I stop here without trying them.');
  });
});
