/**
 * Accepting on a filtered Review (issue 34, item 4): the accepted bug leaves
 * the list — here, or in another process — and the selection goes to its
 * neighbour, shown from the top, so the next `a` accepts the bug now on
 * screen, never one the reviewer did not see.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { openWorkbench } from '../helpers/workbench.js';
import { at, coreOf, putBug, workspace } from '../helpers/workspace.js';

let term: Awaited<ReturnType<typeof openWorkbench>> | undefined;
afterEach(() => term?.unmount());

/** A diff of 40 changed lines, each naming its bug. */
function longDiff(name: string): string {
  const lines = Array.from({ length: 40 }, (_, i) => `-\told${i} := "${name}"\n+\tnew${i} := "${name}"`);
  return `diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,40 +1,40 @@\n${lines.join('\n')}\n`;
}

describe('the Review screen after an action', () => {
  it('selects the next bug of a filtered list and shows its detail from the top; the next a accepts that one', async () => {
    const store = workspace();
    // Newest first: top, middle, bottom.
    for (const [i, name] of ['bottom', 'middle', 'top'].entries()) {
      putBug(store, `ratekit-removal-${name}0000`, { createdAt: at(i + 1) }, { 'bug_inject.diff': longDiff(name), 'test_weaken.diff': '' });
    }
    putBug(store, 'ratekit-removal-other0000', { status: 'invalid', createdAt: at(9) });
    term = await openWorkbench(coreOf(store));
    await term.press('5', /4 bug\(s\)/);
    await term.press('f', /status checking/);
    await term.press('f', /3 bug\(s\) status valid/);
    await term.press('j', /›ratekit-removal-middle0000/);
    await term.press('v', /\[checks\]/);
    await term.press('v', /\[diff\]/);
    // Into the detail, scrolled well down the middle bug's diff.
    term.stdin.write('\r');
    for (let i = 0; i < 30; i++) term.stdin.write('j');
    await term.until(() => expect(term!.frame()).toMatch(/ 31–\d+\/88/));
    term.stdin.write('a');
    await term.until(() => expect(term!.frame()).toContain('ratekit-removal-middle0000 accepted'));
    let frame = term.frame();
    expect(frame).toMatch(/2 bug\(s\) status valid/);
    expect(frame).toMatch(/›ratekit-removal-bottom0000/);
    // From its top: the diff's title and first lines, of the bug now selected.
    expect(frame).toMatch(/\[diff\] tests 1–\d+\/88/);
    expect(frame).toContain('── bug_inject.diff');
    expect(frame).toContain('-   old0 := "bottom"');
    term.stdin.write('a');
    await term.until(() => expect(term!.frame()).toContain('ratekit-removal-bottom0000 accepted'));
    frame = term.frame();
    expect(frame).toMatch(/›ratekit-removal-top0000/);
    expect(frame).toContain('-   old0 := "top"');
    expect(store.get('bugs', 'ratekit-removal-middle0000')?.status).toBe('accepted');
    expect(store.get('bugs', 'ratekit-removal-bottom0000')?.status).toBe('accepted');
    expect(store.get('bugs', 'ratekit-removal-top0000')?.status).toBe('valid');
  });

  it('shows the neighbour from the top when another process takes the selected bug out of the list', async () => {
    const store = workspace();
    for (const [i, name] of ['bottom', 'middle', 'top'].entries()) {
      putBug(store, `ratekit-removal-${name}0000`, { createdAt: at(i + 1) }, { 'bug_inject.diff': longDiff(name), 'test_weaken.diff': '' });
    }
    term = await openWorkbench(coreOf(store));
    await term.press('5', /3 bug\(s\)/);
    await term.press('f', /status checking/);
    await term.press('f', /3 bug\(s\) status valid/);
    await term.press('j', /›ratekit-removal-middle0000/);
    await term.press('v', /\[checks\]/);
    await term.press('v', /\[diff\]/);
    term.stdin.write('\r');
    for (let i = 0; i < 30; i++) term.stdin.write('j');
    await term.until(() => expect(term!.frame()).toMatch(/ 31–\d+\/88/));
    // `bugbench accept` in another terminal.
    Store.open({ root: store.root }).transact((tx) => tx.patch('bugs', 'ratekit-removal-middle0000', { status: 'accepted' }));
    await term.until(() => expect(term!.frame()).toMatch(/2 bug\(s\) status valid/), 15_000);
    expect(term.frame()).toMatch(/›ratekit-removal-bottom0000/);
    expect(term.frame()).toMatch(/\[diff\] tests 1–\d+\/88/);
    expect(term.frame()).toContain('-   old0 := "bottom"');
    term.stdin.write('a');
    await term.until(() => expect(term!.frame()).toContain('ratekit-removal-bottom0000 accepted'));
    expect(store.get('bugs', 'ratekit-removal-top0000')?.status).toBe('valid');
  });
});
