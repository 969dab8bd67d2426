/** The workbench in a terminal of a given size, for screen tests: its frames read without colours, keys pressed until they show. */
import { expect, vi } from 'vitest';
import type { WorkbenchCore } from '../../src/pipeline/workbench-core.js';
import { App } from '../../src/ui/app.js';
import { renderIn } from './terminal.js';

/** Waits for `check` to hold, looking every 50 ms. */
export const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 50 });

/** The workbench over `core` in a terminal of `size`, with its frames read without colours. */
export async function openWorkbench(core: WorkbenchCore, size = { columns: 80, rows: 24 }) {
  const term = renderIn(<App core={core} />, size);
  // eslint-disable-next-line no-control-regex
  const frame = () => term.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
  /** Presses `key` until the frame shows `mark` (Ink may still be wiring up input). */
  const press = (key: string, mark: RegExp | string) =>
    until(() => {
      const shown = typeof mark === 'string' ? frame().includes(mark) : mark.test(frame());
      if (!shown) term.stdin.write(key);
      expect(frame()).toMatch(mark);
    });
  await until(() => expect(frame()).toContain('Repo images'));
  return { ...term, frame, until, press };
}

export type Workbench = Awaited<ReturnType<typeof openWorkbench>>;
