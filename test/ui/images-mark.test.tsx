/**
 * Issue 29, item 5: the Images screen marks several images with space for
 * one run, and the run spreads its rollouts over them by the same core code as
 * `inject --images` (the settings' images). The injection is a stand-in that
 * records its settings.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../src/pipeline/events.js';
import type { InjectResult, InjectSettings } from '../../src/pipeline/inject.js';
import { injectSettings } from '../../src/pipeline/inject-settings.js';
import type { InjectionStart } from '../../src/pipeline/start-injection.js';
import { workbenchCore, type WorkbenchCore } from '../../src/pipeline/workbench-core.js';
import type { RepoImage } from '../../src/sandbox/repo-images.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { fits, renderIn } from '../helpers/terminal.js';
import { HEALTHY } from '../helpers/workspace.js';

/** The core's start of a new run, handing the run's settings (defaults applied, as the core does) to `inject`. */
function starting(inject: (settings: InjectSettings, deps: unknown, report: Report) => Promise<InjectResult>): WorkbenchCore['startInjection'] {
  return async (start: InjectionStart, deps: unknown, report: Report) => {
    if (!('request' in start)) throw new Error('this test starts new runs only');
    return inject(injectSettings(start.request), deps, report);
  };
}

const SIZE = { columns: 80, rows: 24 };
const image = (tag: string, repo: string, extra: Partial<RepoImage> = {}): RepoImage => ({ id: `sha256:${repo}`, tag, repo, commit: 'c0ffee', created: '2026-01-01T00:00:00.000Z', sizeBytes: 0, bugs: 0, bugCounts: {}, testCommand: 'pytest', ...extra });
const IMAGES = [
  image('bugbench/repo-knotcfg:latest', 'knotcfg'),
  image('bugbench/repo-slotsmith:latest', 'slotsmith'),
  image('sweb.eval.x86_64.knotcfg__knotcfg-1:latest', 'knotcfg', { adopted: true, root: '/testbed' }),
];

let term: ReturnType<typeof renderIn> | undefined;
afterEach(() => term?.unmount());

// eslint-disable-next-line no-control-regex
const frame = () => term!.lastFrame().replace(/\u001B\[[0-9;]*m/g, '');
const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 50 });

describe('marking images for one run', () => {
  it('marks with space, shows the marked images on the Run form, and runs over them as inject --images does', async () => {
    const runs: InjectSettings[] = [];
    const inject = async (settings: InjectSettings, _deps: unknown, report: Report): Promise<InjectResult> => {
      runs.push(settings);
      report({ type: 'run-started', runId: 'run-marked', kind: 'inject' });
      return { runId: 'run-marked', status: 'finished', bugs: [], rollouts: [], yield: { rollouts: 0, submitted: 0, featuresThatBroke: null, valid: 0 } };
    };
    const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-images-mark-')) });
    const core: WorkbenchCore = { ...workbenchCore(store), diagnose: async () => HEALTHY, engines: async () => [], listImages: async () => IMAGES, startInjection: starting(inject) };
    term = renderIn(<App core={core} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images (3)'));

    term.stdin.write(' ');
    await until(() => expect(frame()).toContain('1 marked for one run'));
    term.stdin.write('j');
    term.stdin.write(' ');
    await until(() => expect(frame()).toContain('2 marked for one run'));
    // Space again unmarks; then the third image is marked instead.
    term.stdin.write(' ');
    await until(() => expect(frame()).toContain('1 marked for one run'));
    term.stdin.write('j');
    term.stdin.write(' ');
    await until(() => expect(frame()).toContain('2 marked for one run'));
    await until(() => {
      const rows = frame().split('\n');
      expect(rows.find((r) => r.includes('bugbench/repo-knotcfg'))).toMatch(/✓ bugbench\/repo-knotcfg/);
      expect(rows.find((r) => r.includes('bugbench/repo-slotsmit'))).not.toContain('✓');
      expect(rows.find((r) => r.includes('sweb.eval'))).toMatch(/✓ sweb\.eval/);
    });
    expect(fits(term.lastFrame(), SIZE).widest).toBeLessThanOrEqual(SIZE.columns);

    term.stdin.write('\r');
    await until(() => expect(frame()).toContain('New injection run on 2 images, rollouts spread over them from the seed'));
    expect(frame()).toContain('bugbench/repo-knotcfg:latest, sweb.eval.x86_64.knotcfg__knotcfg-1:latest');
    term.stdin.write('\r');
    await until(() => expect(runs).toHaveLength(1));
    expect(runs[0]).toMatchObject({ image: 'bugbench/repo-knotcfg:latest', images: ['bugbench/repo-knotcfg:latest', 'sweb.eval.x86_64.knotcfg__knotcfg-1:latest'] });
    await until(() => expect(frame()).toContain('2 images'));
  });

  it('runs on the image under the cursor alone when none is marked, as before', async () => {
    const runs: InjectSettings[] = [];
    const inject = async (settings: InjectSettings): Promise<InjectResult> => {
      runs.push(settings);
      return { runId: 'run-one', status: 'finished', bugs: [], rollouts: [], yield: { rollouts: 0, submitted: 0, featuresThatBroke: null, valid: 0 } };
    };
    const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-images-mark-')) });
    const core: WorkbenchCore = { ...workbenchCore(store), diagnose: async () => HEALTHY, engines: async () => [], listImages: async () => IMAGES, startInjection: starting(inject) };
    term = renderIn(<App core={core} />, SIZE);
    await until(() => expect(frame()).toContain('Repo images (3)'));
    term.stdin.write('j');
    term.stdin.write('\r');
    await until(() => expect(frame()).toContain('New injection run on bugbench/repo-slotsmith:latest'));
    term.stdin.write('\r');
    await until(() => expect(runs).toHaveLength(1));
    expect(runs[0]!.image).toBe('bugbench/repo-slotsmith:latest');
    expect(runs[0]!.images).toBeUndefined();
  });
});
