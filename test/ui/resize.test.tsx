/**
 * A terminal resized under the workbench (issue 34, item 17): the frame is
 * made again for the new size — its height, its widths, the transcript's
 * wrapping — and once the size settles the screen is cleared and drawn
 * again whole, once however many resizes came in a burst.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CLEAR_SCREEN } from '../../src/ui/use-terminal-size.js';
import { fits } from '../helpers/terminal.js';
import { openWorkbench } from '../helpers/workbench.js';
import { coreOf, IMAGE, putRun, putTrajectory, workspace } from '../helpers/workspace.js';

let term: Awaited<ReturnType<typeof openWorkbench>> | undefined;
afterEach(() => term?.unmount());

/** 30 numbered words: about 240 columns of text, wrapped at spaces. */
const WORDS = Array.from({ length: 30 }, (_, i) => `word${String(i + 1).padStart(2, '0')}`);

function runWithText() {
  const store = workspace();
  putRun(store, { id: 'run-1', kind: 'inject', n: 1 }, 1);
  putTrajectory(store, 'run-1', 'run-1-r1', [
    { type: 'rollout-started', rolloutId: 'run-1-r1', runId: 'run-1', role: 'injector', strategy: 'removal', policy: 'offline', model: 'offline/removal', image: IMAGE },
    { type: 'step-started', step: 1 },
    { type: 'text-delta', step: 1, text: WORDS.join(' ') },
    { type: 'finished', reason: 'submitted', steps: 1, costUsd: 0, durationMs: 10 },
  ]);
  return store;
}

function plain(write: string): string {
  // eslint-disable-next-line no-control-regex
  return write.replace(/\u001B\[[0-9;]*m/g, '');
}

function expectFrameOf(frame: string, size: { columns: number; rows: number }) {
  const { lines, widest } = fits(frame, size);
  expect(lines).toBeLessThan(size.rows);
  expect(widest).toBeLessThanOrEqual(size.columns);
  const rows = frame.replace(/\n$/, '').split('\n');
  expect(rows[0]).toMatch(/^bugbench /);
  expect(rows.filter((r) => r.startsWith('bugbench '))).toHaveLength(1);
  // The transcript wrapped for this width: every word there, none cut.
  for (const word of WORDS) expect(frame).toContain(word);
  expect(frame).not.toMatch(/word\d*…/);
}

describe('resizing the terminal', () => {
  it('draws the frame for the new size, and clears the screen once the size has settled', async () => {
    term = await openWorkbench(coreOf(runWithText()), { columns: 80, rows: 24 });
    await term.press('3', /r1 transcript/);
    expectFrameOf(term.frame(), { columns: 80, rows: 24 });
    const before = term.writes.length;
    term.resize(70, 20);
    await term.until(() => expect(term!.writes.slice(before).some((w) => w.includes(CLEAR_SCREEN))).toBe(true));
    // The clear comes once the frame of the new size is drawn: Ink writes that frame again after it.
    // (In these tests Ink writes each frame whole and keeps none to write again: the frame is the write before.)
    const after = term.writes.slice(before);
    const clear = after.findIndex((w) => w.includes(CLEAR_SCREEN));
    expect(after[clear]).toBe(CLEAR_SCREEN);
    expectFrameOf(plain(after[clear - 1]!), { columns: 70, rows: 20 });
  });

  it('clears once after a burst of resizes, and ends at the last size', async () => {
    term = await openWorkbench(coreOf(runWithText()), { columns: 80, rows: 24 });
    await term.press('3', /r1 transcript/);
    const before = term.writes.length;
    for (const [columns, rows] of [[70, 20], [80, 24], [70, 20], [80, 24], [70, 20]] as const) term.resize(columns, rows);
    await term.until(() => expect(term!.writes.slice(before).some((w) => w.includes(CLEAR_SCREEN))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = term.writes.slice(before);
    expect(after.filter((w) => w.includes(CLEAR_SCREEN))).toHaveLength(1);
    expect(after.at(-1)).toBe(CLEAR_SCREEN);
    expectFrameOf(plain(after.at(-2)!), { columns: 70, rows: 20 });
  });
});
