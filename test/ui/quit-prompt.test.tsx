/**
 * The question q asks while a run goes on fits the terminal with its way back
 * ("any other key stays") whole (newcomer report, item 10): at 80×24 it was
 * cut before it. A real store; the injection is a stand-in that runs until
 * its signal aborts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../src/pipeline/events.js';
import type { InjectResult } from '../../src/pipeline/inject.js';
import type { WorkDeps } from '../../src/pipeline/workbench-core.js';
import { App } from '../../src/ui/app.js';
import { renderIn } from '../helpers/terminal.js';
import { coreOf, workspace } from '../helpers/workspace.js';

let term: ReturnType<typeof renderIn> | undefined;
afterEach(() => term?.unmount());

// eslint-disable-next-line no-control-regex
const frame = () => term!.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 50 });

/** A run that reports its start and goes on until it is cancelled. */
async function endless(_start: unknown, deps: WorkDeps, report: Report): Promise<InjectResult> {
  report({ type: 'run-started', runId: 'run-q', kind: 'inject' });
  await new Promise<void>((resolve) => deps.signal?.addEventListener('abort', () => resolve(), { once: true }));
  return { runId: 'run-q', status: 'cancelled', bugs: [], rollouts: [], yield: { rollouts: 3, submitted: 0, featuresThatBroke: null, valid: 0 } };
}

describe('the quit question (newcomer report, item 10)', () => {
  for (const columns of [80, 50]) {
    it(`says at ${columns} columns how to quit and how to stay`, async () => {
      let code: number | undefined;
      term = renderIn(<App core={coreOf(workspace(), { startInjection: endless })} onExitCode={(c) => (code = c)} />, { columns, rows: 24 });
      await until(() => expect(frame()).toContain('Repo images'));
      await until(() => {
        if (!frame().includes('New injection run on')) term!.stdin.write('2');
        expect(frame()).toContain('New injection run on');
      });
      term.stdin.write('\r');
      await until(() => expect(frame()).toMatch(/^live: /m));
      term.stdin.write('q');
      await until(() => expect(frame()).toMatch(/q again .*quits; any other key stays\.$/m));
      const prompt = frame().split('\n').find((line) => line.includes('any other key stays'))!;
      expect(prompt.length).toBeLessThanOrEqual(columns);
      // Another key stays; q twice cancels the run and quits.
      term.stdin.write('j');
      await until(() => expect(frame()).not.toContain('any other key stays'));
      term.stdin.write('q');
      await until(() => expect(frame()).toContain('any other key stays'));
      term.stdin.write('q');
      await until(() => expect(code).toBe(0));
    });
  }
});
