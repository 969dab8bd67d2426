import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { TmuxSession } from '../helpers/tmux.js';

let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.kill();
});

describe('bugbench tui in a real terminal', () => {
  it('opens on the sample images, follows the arrow keys and quits on q', async () => {
    session = await TmuxSession.start(`CI=false node ${BIN} tui; echo "exit status $?"; sleep 30`);
    const first = await session.waitFor(/Repo images \(\d+\)/);
    expect(first).toMatch(/bugbench\/repo-\w+:latest/);
    const selected = (screen: string) => /› (\S+)/.exec(screen)?.[1];
    const before = selected(first);
    await session.keys('Down');
    const after = await session.waitFor(/› (\S+)/);
    await session.waitFor(new RegExp(`› (?!${before?.replace(/[/.]/g, '\\$&')})`));
    expect(selected(await session.screen())).not.toBe(before);
    expect(after).toContain('↑/↓ select');
    await session.keys('q');
    await session.waitFor(/exit status 0/);
  });

  it('refuses to start without a terminal, in one line', async () => {
    const { bugbench } = await import('../helpers/cli.js');
    const result = await bugbench(['tui']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(
      'bugbench: tui needs an interactive terminal; use the headless commands (see `bugbench --help`) in scripts',
    );
  });
});
