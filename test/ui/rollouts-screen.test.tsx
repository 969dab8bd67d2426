/** The Rollouts screen at 80×24 over a workspace's past runs (issue 34, items 16 and 19). */
import { afterEach, describe, expect, it } from 'vitest';
import type { RolloutEventBody } from '../../src/agent/events.js';
import { openWorkbench } from '../helpers/workbench.js';
import { coreOf, IMAGE, putRun, putTrajectory, workspace } from '../helpers/workspace.js';

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

  it('names a run over a corpus by its count of images', async () => {
    const store = workspace();
    putRun(store, { id: 'run-corpus', kind: 'inject', n: 3, image: IMAGE, images: [IMAGE, 'bugbench/repo-knotcfg:latest', 'sweb.eval.x86_64.x__x-1:latest'] }, 1);
    term = await openWorkbench(coreOf(store));
    await term.press('3', /r1 transcript/);
    expect(term.frame().split('\n')[1]).toContain('removal on 3 images');
  });

  it('keeps the place scrolled to when f unfolds the long outputs (issue 34, item 19)', async () => {
    const store = workspace();
    putRun(store, { id: 'run-1', kind: 'inject', n: 1 }, 1);
    const tool = (step: number, name: string): RolloutEventBody[] => [
      { type: 'tool-call-started', step, callId: name, name: 'bash' },
      { type: 'tool-call-finished', step, callId: name, name: 'bash', input: { command: `cat ${name}.go` }, output: Array.from({ length: 30 }, (_, i) => `${name} line ${i}`).join('\n'), isError: false, exitCode: 0, durationMs: 5 },
    ];
    putTrajectory(store, 'run-1', 'run-1-r1', [
      { type: 'rollout-started', rolloutId: 'run-1-r1', runId: 'run-1', role: 'injector', strategy: 'removal', policy: 'offline', model: 'offline/removal', image: IMAGE },
      { type: 'step-started', step: 1 },
      { type: 'text-delta', step: 1, text: 'the first words of the rollout' },
      ...tool(1, 'first'),
      { type: 'step-started', step: 2 },
      { type: 'text-delta', step: 2, text: 'words in the middle' },
      ...tool(2, 'second'),
      { type: 'step-started', step: 3 },
      { type: 'text-delta', step: 3, text: 'the last words' },
      { type: 'finished', reason: 'submitted', steps: 3, costUsd: 0, durationMs: 30 },
    ]);
    term = await openWorkbench(coreOf(store));
    await term.press('3', /r1 transcript/);
    expect(term.frame()).toContain('the last words');
    /** The transcript's first row in view. */
    const top = () => term!.frame().split('\n')[term!.frame().split('\n').findIndex((l) => /r1 transcript/.test(l)) + 1]!;
    await term.press('g', /rows up \(G: end\)/);
    expect(top()).toBe('the first words of the rollout');
    await term.press('f', /\(unfolded\)/);
    expect(top()).toBe('the first words of the rollout');
    expect(term.frame()).toContain('first line 0');
    expect(term.frame()).not.toContain('the last words');
    // Folded again, still there; G goes back to following the end.
    await term.press('f', /r1 transcript ·/);
    expect(top()).toBe('the first words of the rollout');
    await term.press('G', 'the last words');
  });
});
