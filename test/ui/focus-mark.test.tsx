/**
 * One focus mark on every screen, drawn as a character (issue 34, item 18):
 * without colour (NO_COLOR, or a terminal without it) inverse video is not
 * drawn, and the focused check on Checks had nothing else to show it.
 * Frames are read with every colour and attribute taken out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FOCUS_MARK } from '../../src/ui/focus.js';
import { openWorkbench } from '../helpers/workbench.js';
import { coreOf, IMAGE, putBug, putRun, putTrajectory, workspace } from '../helpers/workspace.js';

const BUG = 'ratekit-removal-1d5c1fcc';

let term: Awaited<ReturnType<typeof openWorkbench>> | undefined;
afterEach(() => term?.unmount());

function checkedBug() {
  const store = workspace();
  const check = (name: string) => ({ name, verdict: 'pass', reason: `${name} is fine`, durationMs: 10, runs: [] });
  putBug(store, BUG, { check: { valid: true, cancelled: false, failedCheck: null, reason: 'all 9 checks pass', verdicts: 'ppppppppp', at: '2026-01-01T00:00:00.000Z', dir: 'checks/x', failToPass: 1, passToPass: 9 } }, {
    'checks/x/report.json': JSON.stringify({ valid: true, checks: ['test-files', 'parser', 'test-script'].map(check), FAIL_TO_PASS: [], PASS_TO_PASS: [] }),
  });
  putRun(store, { id: 'run-1', kind: 'inject', n: 2 }, 1);
  putTrajectory(store, 'run-1', 'run-1-r1', [{ type: 'rollout-started', rolloutId: 'run-1-r1', runId: 'run-1', role: 'injector', strategy: 'removal', policy: 'offline', model: 'offline/removal', image: IMAGE }]);
  return store;
}

/** The rows of the frame that carry the focus mark (inside a box's border, if any). */
function marked(frame: string): string[] {
  return frame
    .split('\n')
    .map((row) => row.replace(/^[│\s]+/, ''))
    .filter((row) => row.startsWith(FOCUS_MARK));
}

describe('the focus mark', () => {
  it('marks the focused row of every screen with the same character, colour or not', async () => {
    term = await openWorkbench(coreOf(checkedBug()));
    expect(marked(term.frame())).toEqual([expect.stringMatching(new RegExp(`^${FOCUS_MARK} ${IMAGE}`))]);
    await term.press('2', /New injection run on/);
    expect(marked(term.frame())).toEqual([expect.stringMatching(/^› strategy/)]);
    await term.press('3', /r1 transcript/);
    expect(marked(term.frame())).toEqual([expect.stringMatching(/^›r1 /)]);
    await term.press('4', `${BUG} VALID`);
    expect(marked(term.frame())).toEqual([expect.stringMatching(/^› ✓ test-files +0\.0 s {2}test-files is fine/)]);
    await term.press('j', /› ✓ parser/);
    expect(marked(term.frame())).toEqual([expect.stringMatching(/^› ✓ parser/)]);
    await term.press('5', /1 bug\(s\)/);
    expect(marked(term.frame())).toEqual([expect.stringMatching(new RegExp(`^›${BUG}`))]);
    await term.press('v', /\[checks\]/);
    expect(marked(term.frame())).toEqual([expect.stringMatching(new RegExp(`^›${BUG}`)), expect.stringMatching(/^› ✓ test-files/)]);
  });
});
