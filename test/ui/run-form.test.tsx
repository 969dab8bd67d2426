/**
 * The Run form at 80×24 (issue 34, item 13): 1 bug with 2 at a time starts,
 * as from the CLI; the first digit typed on a field replaces its value; the
 * footer says backspace erases. A real store; the injection is a stand-in
 * that records its settings.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../src/pipeline/events.js';
import type { InjectRequest, InjectResult } from '../../src/pipeline/inject.js';
import type { InjectionStart } from '../../src/pipeline/start-injection.js';
import { workbenchCore, type WorkbenchCore } from '../../src/pipeline/workbench-core.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { renderIn } from '../helpers/terminal.js';
import { HEALTHY } from '../helpers/workspace.js';

const SIZE = { columns: 80, rows: 24 };
const IMAGE = 'bugbench/repo-ratekit:latest';
const DOWN = '\u001B[B';

let term: ReturnType<typeof renderIn> | undefined;
afterEach(() => term?.unmount());

// eslint-disable-next-line no-control-regex
const frame = () => term!.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 50 });

/** The new run a start asks for (these tests start no resume). */
function requestOf(start: InjectionStart): InjectRequest {
  if (!('request' in start)) throw new Error(`expected a new run, got a resume of ${start.resume}`);
  return start.request;
}

describe('the Run form (issue 34, item 13)', () => {
  it('starts 1 bug with 2 at a time, replaces a value with the first digit typed, and names backspace', async () => {
    const started: InjectRequest[] = [];
    const inject = async (settings: InjectRequest, _deps: unknown, report: Report): Promise<InjectResult> => {
      started.push(settings);
      report({ type: 'run-started', runId: 'run-one', kind: 'inject' });
      report({ type: 'run-finished', runId: 'run-one', status: 'finished' });
      return { runId: 'run-one', status: 'finished', bugs: [], rollouts: [], yield: { rollouts: 0, submitted: 0, featuresThatBroke: null, valid: 0 } };
    };
    const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-run-form-')) });
    const core: WorkbenchCore = {
      ...workbenchCore(store),
      diagnose: async () => HEALTHY,
      engines: async () => [],
      listImages: async () => [{ id: 'sha256:1', tag: IMAGE, repo: 'ratekit', commit: 'c0', created: '2026-01-01T00:00:00.000Z', sizeBytes: 0, bugs: 0, bugCounts: {}, testCommand: 'go test' }],
      startInjection: (start, deps, report) => inject(requestOf(start), deps, report),
    };
    term = renderIn(<App core={core} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images'));
    await until(() => {
      if (!frame().includes('New injection run on')) term!.stdin.write('2');
      expect(frame()).toContain('New injection run on');
    });
    expect(frame().trimEnd().split('\n').at(-1)).toContain('backspace');
    term.stdin.write(DOWN);
    await until(() => expect(frame()).toMatch(/› bugs +3/));
    // The first digit replaces the 3; the next one is added.
    term.stdin.write('1');
    await until(() => expect(frame()).toMatch(/› bugs +1\b/));
    term.stdin.write('2');
    await until(() => expect(frame()).toMatch(/› bugs +12\b/));
    term.stdin.write('\u007F');
    await until(() => expect(frame()).toMatch(/› bugs +1\b/));
    expect(frame()).toMatch(/at a time +2 runs 1: one rollout a bug/);
    expect(frame()).not.toMatch(/more at a time|Fix the value/);
    term.stdin.write('\r');
    await until(() => expect(started).toHaveLength(1));
    expect(started[0]).toMatchObject({ image: IMAGE, n: 1, concurrency: 1 });
  });
});
