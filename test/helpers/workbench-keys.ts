/** Key sequences the end-to-end tests share, driving the real workbench in tmux. */
import { expect } from 'vitest';
import type { TmuxSession } from './tmux.js';

/** Moves down the Images screen until `tag` is selected (other tests' images may be listed too). */
export async function selectImage(session: TmuxSession, tag: string): Promise<void> {
  const selected = async () => /› (\S+)/.exec(await session.screen())?.[1];
  for (let i = 0; i < 40 && (await selected()) !== tag; i++) {
    const before = await selected();
    await session.keys('Down');
    await session.waitFor(new RegExp(`› (?!${before?.replace(/[/.:]/g, '\\$&')} )`), 5000).catch(() => undefined);
  }
  expect(await selected()).toBe(tag);
}

/** On the Checks screen, steps through the nine checks one Enter at a time; returns the screen after the last. */
export async function stepNineChecks(session: TmuxSession): Promise<string> {
  for (let step = 1; step <= 9; step++) {
    await session.keys('Enter');
    await session.waitForState(new RegExp(`stepping: ${step} of 9 judged`));
  }
  return session.screen();
}
