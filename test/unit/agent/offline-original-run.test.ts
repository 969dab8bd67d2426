/**
 * Issue 34, item 24: injection ended with "Only 1 tests pass on the original
 * code; at least 10 are…" (cut off), without the real cause: the test files
 * crashed on load.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RolloutEvent } from '../../../src/agent/events.js';
import type { ToolCall } from '../../../src/agent/offline/offline-model.js';
import { loadGrammars } from '../../../src/agent/offline/syntax.js';
import { rolloutLine } from '../../../src/commands/rollout-lines.js';
import { drive } from './offline-drive.js';

beforeAll(async () => {
  await loadGrammars();
});

const CRASH = [
  'not ok 2 - /repo/test/conversions.test.js',
  '  ---',
  "  error: 'test failed'",
  '  ...',
  '/repo/lib/index.js:12',
  '  static #cache = new Map();',
  '         ^',
  'SyntaxError: Unexpected token (Node 18 reads no static blocks here)',
  '# pass 1',
  '# fail 1',
  '[exit code 0]',
].join('\n');

describe('too few tests pass on the original code', () => {
  const files = {
    'package.json': JSON.stringify({ name: 'conv', type: 'module', engines: { node: '>=20' }, scripts: { test: 'node --test test/' } }),
    'lib/index.js': 'export function byte(n) {\n  if (n < 0) return 0;\n  return n > 255 ? 255 : n;\n}\n',
    'test/smoke.test.js': "import { test } from 'node:test';\ntest('loads', () => {});\n",
    'test/conversions.test.js': "import { test } from 'node:test';\nimport { byte } from '../lib/index.js';\ntest('byte', () => byte(1));\n",
  };

  it('ends with the whole reason and the end of the original log', async () => {
    const answer = (call: ToolCall) => (call.name === 'bash' && String(call.input.command).startsWith('tail -n 15') ? CRASH : undefined);
    const { actions, closing } = await drive(files, { loads: 'passed', byte: 'failed' }, { answer, injector: { minPassingTests: 10 } });
    expect(actions.at(-1)!.thought).toBe('Only 1 test(s) pass on the original code. The end of its log says why.');
    expect(closing).toBe(
      [
        'Only 1 test(s) pass on the original code; at least 10 are needed, so I stop here. The original run ended with:',
        ...CRASH.split('\n')
          .filter((l) => !l.startsWith('[exit code'))
          .map((l) => `    ${l}`),
      ].join('\n'),
    );
  });

  it('is shown whole when the rollout ends, the log below the reason', () => {
    const detail = `the offline agent (offline/direct) stopped without submitting: Only 1 test(s) pass on the original code; at least 10 are needed, so I stop here. The original run ended with:\n    SyntaxError: Unexpected token\n    # fail 1`;
    const line = rolloutLine('r1', { type: 'finished', reason: 'error', steps: 6, costUsd: 0, tokens: 10, durationMs: 1000, detail, seq: 1, t: 1 } as RolloutEvent);
    expect(line).toBe(`[r1] finished: error after 6 step(s), 10 tokens, 1.0 s — ${detail}`);
  });
});
