import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importArtifact } from '../../src/pipeline/import.js';
import { acceptBug } from '../../src/pipeline/review.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { workbenchCore } from '../../src/pipeline/workbench-core.js';
import { SCREENS } from '../../src/ui/screens.js';
import { artifactPath } from '../helpers/artifacts.js';
import { fits, renderIn } from '../helpers/terminal.js';

const SIZE = { columns: 80, rows: 24 };
const root = mkdtempSync(join(tmpdir(), 'bugbench-frames-ui-'));
chmodSync(root, 0o755);
const store = Store.open({ root });
const core = workbenchCore(store);
let bug = '';

beforeAll(async () => {
  // A library with one accepted bug, so that every screen has something to draw.
  bug = (await importArtifact({ folder: artifactPath('valid-two-files'), analysis: { policy: 'offline' } }, { store })).bug.id;
  acceptBug(store, bug, 'frames test');
}, 120_000);

let term: ReturnType<typeof renderIn>;
afterAll(() => term?.unmount());

/** The last frame Ink drew, with its colours taken out. */
function frame(): string {
  // eslint-disable-next-line no-control-regex
  return term.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
}

function expectFits(text: string): void {
  const { lines, widest } = fits(text, SIZE);
  expect(widest, text).toBeLessThanOrEqual(SIZE.columns);
  // The frame stays shorter than the terminal: Ink would clear the whole screen otherwise.
  expect(lines, text).toBeLessThan(SIZE.rows);
}

describe('every screen at 80×24', () => {
  it('draws each screen and its help inside the terminal, header first and footer last', async () => {
    term = renderIn(<App core={core} />, SIZE);
    await vi.waitFor(() => expect(frame()).toContain('Repo images'), { timeout: 30_000 });
    const marks: Record<string, RegExp> = {
      images: /› \S+/,
      run: /New injection run on[\s\S]*offline: removal, history, direct \((Python|Go|TS\/JS)\)/,
      rollouts: /No run yet|run-|live:/,
      checks: new RegExp(`${bug} ACCEPTED`),
      review: new RegExp(`${bug.slice(0, 20)}`),
      training: /training job\(s\)/,
    };
    for (const screen of SCREENS) {
      await vi.waitFor(
        () => {
          if (!frame().includes(`[${screen.key} ${screen.title}]`)) term.stdin.write(screen.key);
          expect(frame()).toContain(`[${screen.key} ${screen.title}]`);
          expect(frame()).toMatch(marks[screen.id]!);
        },
        { timeout: 15_000, interval: 150 },
      );
      const text = frame();
      expectFits(text);
      const lines = text.replace(/\n$/, '').split('\n');
      expect(lines[0]).toMatch(/^bugbench /);
      expect(lines.at(-1)).toMatch(/\? help · q quit|q quit/);
      // Its help lists every key of the screen, and fits too; esc closes it.
      term.stdin.write('?');
      await vi.waitFor(() => expect(frame()).toContain(`Keys of ${screen.title}`), { timeout: 5_000 });
      const help = frame();
      expectFits(help);
      for (const [key] of screen.keys) expect(help).toContain(key);
      expect(help).toContain('ctrl-c');
      term.stdin.write('\u001B');
      await vi.waitFor(() => expect(frame()).not.toContain(`Keys of ${screen.title}`), { timeout: 5_000 });
    }
  }, 120_000);

  it('tells a wrong value in the Run form in place and starts nothing', async () => {
    term.stdin.write('2');
    await vi.waitFor(() => expect(frame()).toContain('[2 Run]'), { timeout: 5_000 });
    for (const key of ['\u001B[B', '\u007F', '\u001B[B', '\u007F']) {
      term.stdin.write(key);
      await new Promise((r) => setTimeout(r, 30));
    }
    await vi.waitFor(() => expect(frame()).toMatch(/at a time +needs a value/), { timeout: 5_000 });
    expect(frame()).toMatch(/Fix the 2 values in red to start/);
    term.stdin.write('\r');
    await new Promise((r) => setTimeout(r, 300));
    expect(frame()).toContain('[2 Run]');
    expectFits(frame());
  });
});
