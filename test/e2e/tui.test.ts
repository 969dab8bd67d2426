import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    // esc never quits: it is still there; q quits, with the prompt on a line of its own.
    await session.keys('Escape');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await session.screen()).toMatch(/Repo images/);
    await session.keys('q');
    await session.waitFor(/exit status 0/);
  });

  it('runs an offline injection, opens its bug from the run view, reads its checks, accepts it, steps its checks and solves it', async () => {
    // A workspace of its own: in the shared one an earlier test may have made the same bug, and this one would be its duplicate.
    const home = mkdtempSync(join(tmpdir(), 'bugbench-e2e-'));
    session = await TmuxSession.start(`CI=false BUGBENCH_HOME=${home} node ${BIN} tui; echo "exit status $?"; sleep 30`, { columns: 160, rows: 48 });
    await session.waitFor(/Repo images \(\d+\)/);
    const selected = async () => /› (\S+)/.exec(await session!.screen())?.[1];
    for (let i = 0; i < 10 && !(await selected())?.includes('slotsmith'); i++) {
      const before = await selected();
      await session.keys('Down');
      await session.waitFor(new RegExp(`› (?!${before?.replace(/[/.:]/g, '\\$&')} )`), 5000).catch(() => undefined);
    }
    await session.keys('Enter');
    await session.waitFor(/New injection run on bugbench\/repo-slotsmith:latest/);
    await session.keys('Right'); // history
    await session.keys('-', '-');
    await session.waitFor(/‹ history ›/);
    await session.waitFor(/bugs\s+1/);
    await session.keys('Enter');
    await session.waitFor(/r1 +step \d+/, 30_000);
    const done = await session.waitFor(/1\/1 done, 1 valid/, 120_000);
    expect(done).toMatch(/✓✓✓✓✓✓✓✓✓ VALID/);
    const id = /(slotsmith-history-[0-9a-f]{8})/.exec(done)![1]!;

    // Enter opens the bug on Review; v v steps to its checks; enter into the pane, l opens a log.
    await session.keys('Enter');
    await session.waitFor(new RegExp(`${id}  VALID`));
    await session.keys('v');
    await session.waitFor(/\[checks\]/);
    const checks = await session.screen();
    for (const name of ['test-files', 'parser', 'test-script', 'determinism', 'bug-scope', 'bug-validity', 'test-weakening', 'inverse-mutation', 'gold-patch']) {
      expect(checks).toMatch(new RegExp(`✓ ${name}`));
    }
    await session.keys('Enter', 'Down', 'Down', 'l');
    await session.waitFor(/── log of test-script: original/);
    // (Esc followed at once by a key reads as Alt+key in a terminal: they go apart.)
    await session.keys('Escape');
    await session.waitFor(/\[checks\]/);
    await session.keys('a');
    await session.waitFor(new RegExp(`${id} accepted`));
    // In the list filtered to accepted bugs it is there.
    for (let i = 0; i < 5; i++) await session.keys('f');
    await session.waitFor(/status accepted/);
    expect(await session.screen()).toMatch(new RegExp(`${id} +accepted`));

    // Checks (4): the nine checks again, one key at a time, then 8 solver attempts.
    await session.keys('4');
    await session.waitFor(new RegExp(`${id} ACCEPTED · order 1`));
    for (let step = 1; step <= 9; step++) {
      await session.keys('Enter');
      await session.waitFor(new RegExp(`stepping: ${step} of 9 judged`), 60_000);
    }
    await session.waitFor(new RegExp(`${id} VALID — recorded`));
    await session.keys('s');
    await session.waitFor(/solving 8\/8 · solve rate [\d.]+ · injection reward -?[\d.]+/, 120_000);
    await session.keys('q');
    await session.waitFor(/exit status 0/);
  }, 300_000);

  it('refuses to start without a terminal, in one line', async () => {
    const { bugbench } = await import('../helpers/cli.js');
    const result = await bugbench(['tui']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(
      'bugbench: tui needs an interactive terminal; use the headless commands (see `bugbench --help`) in scripts',
    );
  });
});
