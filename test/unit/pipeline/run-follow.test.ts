import type { CoreEvent } from '../../../src/pipeline/events.js';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { followRun } from '../../../src/pipeline/run-follow.js';
import { Store } from '../../../src/store/store.js';

const line = (seq: number, text: string) => `${JSON.stringify({ type: 'text-delta', step: 1, text, seq, t: seq })}\n`;

describe('following a run from its trajectories', () => {
  it('hands on new lines as they are appended, across a retry that replaces the file, and skips a cut-off line', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-follow-'));
    const store = Store.open({ root });
    const dir = join(root, 'runs', 'run-x');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'run-x-r1.jsonl');
    writeFileSync(file, line(0, 'a') + line(1, 'b') + '{"type":"text-del');
    const seen: string[] = [];
    let passes = 0;
    const report = (reported: CoreEvent) => {
      if (reported.type !== 'rollout') return;
      const { rolloutId: rollout, event } = reported;
      seen.push(`${rollout}:${event.type === 'text-delta' ? event.text : event.type}`);
    };
    await followRun({ runId: 'run-x', intervalMs: 1 }, {
      store,
      until: () => {
        passes++;
        if (passes === 1) {
          // The first try was cut off; the retry writes a new, longer file under the same name.
          renameSync(file, join(dir, 'run-x-r1.try-1.jsonl'));
          writeFileSync(file, line(0, 'c') + line(1, 'd') + line(2, 'e') + line(3, 'f'));
        }
        if (passes === 2) appendFileSync(file, `${line(4, 'g')}${JSON.stringify({ type: 'messages', messages: [] })}\n`);
        return passes >= 3;
      },
    }, report);
    expect(seen).toEqual(['run-x-r1:a', 'run-x-r1:b', 'run-x-r1:c', 'run-x-r1:d', 'run-x-r1:e', 'run-x-r1:f', 'run-x-r1:g']);
  });
});
