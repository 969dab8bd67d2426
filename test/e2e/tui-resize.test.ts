/**
 * Resizing the terminal under the workbench, in a real one (tmux): at 70×20
 * after 80×24 the tab bar is the first line and there is one of it, also
 * after a few quick flips between the two sizes (issue 34, item 17).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { TmuxSession } from '../helpers/tmux.js';

let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.kill();
});

const TAB_BAR = /^bugbench +\[?1 Images/;

/** The screen shows exactly one tab bar, on its first line, and the footer. */
async function oneFrame(session: TmuxSession): Promise<string> {
  let screen = '';
  await vi.waitFor(
    async () => {
      screen = await session.screen();
      const lines = screen.split('\n');
      expect(lines[0], screen).toMatch(TAB_BAR);
      expect(lines.filter((l) => TAB_BAR.test(l)), screen).toHaveLength(1);
      expect(screen).toMatch(/\? help · q quit/);
    },
    { timeout: 15_000, interval: 200 },
  );
  return screen;
}

describe('bugbench tui resized in a real terminal', () => {
  it('keeps the tab bar on the first line, once, from 80×24 to 70×20 and after quick flips', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-resize-'));
    session = await TmuxSession.start(`CI=false BUGBENCH_HOME=${home} node ${BIN} tui; echo "exit status $?"; sleep 30`, { columns: 80, rows: 24 });
    await session.waitFor(/Repo images \(\d+\)/, 60_000);
    await session.keys('5');
    await session.waitFor(/\[5 Review\]/);
    await session.resize(70, 20);
    const narrow = await oneFrame(session);
    expect(narrow).toMatch(/\[5 Review\]/);
    for (const [columns, rows] of [[80, 24], [70, 20], [80, 24], [70, 20]] as const) await session.resize(columns, rows);
    await oneFrame(session);
    // Keys still reach it.
    await session.keys('1');
    await session.waitForState(/Repo images \(\d+\)/);
    await oneFrame(session);
    await session.keys('q');
    await session.waitFor(/exit status 0/);
  });
});
