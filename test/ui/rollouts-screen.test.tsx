/** The Rollouts screen at 80×24 over a workspace's past runs (issue 34, items 16 and 19). */
import { afterEach, describe, expect, it } from 'vitest';
import { coreOf, openWorkbench, putRun, workspace } from '../helpers/workspace.js';

let term: Awaited<ReturnType<typeof openWorkbench>> | undefined;
afterEach(() => term?.unmount());

describe('the Rollouts screen', () => {
  it('shows the whole run id at 80 columns, which `inject --resume` and `replay` need', async () => {
    const store = workspace();
    const ids = ['run-20261126-142735-ab12', 'run-20261126-150102-cd34', 'run-20261126-153347-ef56'];
    for (const [i, id] of ids.entries()) {
      putRun(store, { id, kind: 'inject', n: 4, strategy: 'removal+history', status: 'cancelled' }, i * 10, (r) => ({ status: r === 3 ? 'cancelled' : 'no-bug' }));
    }
    term = await openWorkbench(coreOf(store));
    await term.press('3', /r1 transcript/);
    const header = term.frame().split('\n')[1]!;
    expect(header).toContain(`(${ids[2]}) · [/] 1/3`);
    expect(header).toMatch(/3\/4 done, 1 cancelled, 0 valid/);
    expect(header.length).toBeLessThanOrEqual(80);
    await term.press(']', ids[1]!);
  });
});
