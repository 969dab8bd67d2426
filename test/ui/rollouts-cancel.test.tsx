/**
 * Rollouts' c asks before it cancels the live run, as q and Training's x do
 * (issue 34, item 12). A real store at 80×24; the injection is a scripted
 * stand-in that runs until its signal aborts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RolloutEvent, RolloutEventBody } from '../../src/agent/events.js';
import type { Report } from '../../src/pipeline/events.js';
import type { InjectRequest, InjectResult } from '../../src/pipeline/inject.js';
import type { InjectionStart } from '../../src/pipeline/start-injection.js';
import { workbenchCore, type WorkbenchCore, type WorkDeps } from '../../src/pipeline/workbench-core.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { renderIn } from '../helpers/terminal.js';
import { HEALTHY } from '../helpers/workspace.js';

const SIZE = { columns: 80, rows: 24 };
const IMAGE = 'bugbench/repo-knotcfg:latest';

let term: ReturnType<typeof renderIn> | undefined;
afterEach(() => term?.unmount());

// eslint-disable-next-line no-control-regex
const frame = () => term!.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 50 });
async function press(key: string, mark: RegExp | string): Promise<void> {
  await until(() => {
    if (!(typeof mark === 'string' ? frame().includes(mark) : mark.test(frame()))) term!.stdin.write(key);
    expect(frame()).toMatch(mark);
  });
}

/** The new run a start asks for (these tests start no resume). */
function requestOf(start: InjectionStart): InjectRequest {
  if (!('request' in start)) throw new Error(`expected a new run, got a resume of ${start.resume}`);
  return start.request;
}

describe('Rollouts c (issue 34, item 12)', () => {
  it('asks before cancelling the live run: a second c cancels, any other key keeps it running', async () => {
    const runId = 'run-live';
    let aborted = false;
    const inject = async (_settings: InjectRequest, deps: WorkDeps, report: Report): Promise<InjectResult> => {
      report({ type: 'run-started', runId, kind: 'inject' });
      const send = (body: RolloutEventBody, seq: number) => report({ type: 'rollout', rolloutId: `${runId}-r1`, event: { ...body, seq, t: seq } as RolloutEvent });
      send({ type: 'rollout-started', rolloutId: `${runId}-r1`, runId, role: 'injector', strategy: 'removal', policy: 'offline', model: 'offline/removal', image: IMAGE }, 1);
      send({ type: 'step-started', step: 1 }, 2);
      send({ type: 'text-delta', step: 1, text: 'looking at the repository' }, 3);
      await new Promise<void>((resolve) => deps.signal?.addEventListener('abort', () => resolve(), { once: true }));
      aborted = true;
      send({ type: 'finished', reason: 'cancelled', steps: 1, costUsd: 0, durationMs: 10 }, 4);
      report({ type: 'run-finished', runId, status: 'cancelled' });
      return { runId, status: 'cancelled', bugs: [], rollouts: [], yield: { rollouts: 1, submitted: 0, featuresThatBroke: null, valid: 0 } };
    };
    const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-rollouts-cancel-')) });
    const core: WorkbenchCore = {
      ...workbenchCore(store),
      diagnose: async () => HEALTHY,
      engines: async () => [],
      listImages: async () => [{ id: 'sha256:1', tag: IMAGE, repo: 'knotcfg', commit: 'c0', created: '2026-01-01T00:00:00.000Z', sizeBytes: 0, bugs: 0, bugCounts: {}, testCommand: 'pytest' }],
      startInjection: (start, deps, report) => inject(requestOf(start), deps, report),
    };
    term = renderIn(<App core={core} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    await press('2', /New injection run on/);
    term.stdin.write('\r');
    await until(() => expect(frame()).toContain('looking at the repository'));

    term.stdin.write('c');
    await until(() => expect(frame()).toContain('c again cancels the live run'));
    // Another key keeps it running, and the question goes.
    term.stdin.write('j');
    await until(() => expect(frame()).not.toContain('c again cancels'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(aborted).toBe(false);
    expect(frame()).toMatch(/r1 +step 1/);

    term.stdin.write('c');
    await until(() => expect(frame()).toContain('c again cancels the live run'));
    term.stdin.write('c');
    await until(() => expect(aborted).toBe(true));
    await until(() => expect(frame()).toMatch(/r1 +cancelled/));
  });
});
