/**
 * The Training screen's n form at 80×24 (issue 34, item 15): it says that
 * enter submits, a refused submission keeps what was typed, and the refusal is
 * shown whole, wrapped, not cut at the edge. The real core over an empty store.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { workbenchCore, type WorkbenchCore } from '../../src/pipeline/workbench-core.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { renderIn } from '../helpers/terminal.js';
import { HEALTHY } from '../helpers/workspace.js';

const SIZE = { columns: 80, rows: 24 };
const DOWN = '\u001B[B';
const BACKSPACE = '\u007F';

let term: ReturnType<typeof renderIn> | undefined;
afterEach(() => term?.unmount());

// eslint-disable-next-line no-control-regex
const frame = () => term!.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 50 });
/** The frame's text as one line, the rows joined where they wrapped. */
const flat = () => frame().split('\n').map((l) => l.trim()).join(' ');

describe('the Training form (issue 34, item 15)', () => {
  it('says enter submits, keeps the typed command after a refusal, and shows the refusal whole', async () => {
    const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-training-form-')) });
    const real = workbenchCore(store);
    const submitted: (string | undefined)[] = [];
    const refusals: string[] = [];
    const core: WorkbenchCore = {
      ...real,
      diagnose: async () => HEALTHY,
      engines: async () => [],
      listImages: async () => [],
      defaultTrainingEngine: () => 'local',
      submitTraining: (options) => {
        submitted.push(options.command);
        return real.submitTraining(options).catch((error: Error) => {
          refusals.push(error.message);
          throw error;
        });
      },
    };
    term = renderIn(<App core={core} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    await until(() => {
      if (!frame().includes('training job(s)')) term!.stdin.write('6');
      expect(frame()).toMatch(/0 training job\(s\)/);
    });
    term.stdin.write('n');
    await until(() => expect(frame()).toMatch(/› format +‹ swebench ›/));
    expect(frame()).toContain('enter submits');
    term.stdin.write(DOWN);
    term.stdin.write(DOWN);
    for (const ch of 'torchrun train.py {datset}') term.stdin.write(ch);
    await until(() => expect(frame()).toContain('command torchrun train.py {datset}'));
    term.stdin.write('\r');
    await until(() => expect(submitted).toHaveLength(1));
    // Refused: the form is still there with the command as typed, and the whole reason shows, wrapped.
    await until(() => expect(refusals).toHaveLength(1));
    expect(refusals[0]!.length).toBeGreaterThan(SIZE.columns);
    await until(() => expect(flat()).toContain(refusals[0]!.replace(/\s+/g, ' ')));
    expect(frame()).toContain('command torchrun train.py {datset}');
    expect(frame().split('\n').every((l) => [...l].length <= SIZE.columns)).toBe(true);
    expect(frame().split('\n').length).toBeLessThanOrEqual(SIZE.rows);
    // Fixed in place and sent again.
    for (let i = 0; i < '{datset}'.length; i++) term.stdin.write(BACKSPACE);
    for (const ch of '{dataset}') term.stdin.write(ch);
    await until(() => expect(frame()).toContain('command torchrun train.py {dataset}'));
    term.stdin.write('\r');
    await until(() => expect(submitted).toEqual(['torchrun train.py {datset}', 'torchrun train.py {dataset}']));
  });
});
