/**
 * Adopting an image from the Images screen (issue 29, item 1) at 80×24: `a`
 * takes a name, the adoption's progress is shown, the adopted image is
 * listed, marked and selected; a refusal is shown whole and records nothing.
 * The success path runs over a core whose adoption is scripted (the real one
 * is driven end to end in test/e2e/tui-adopt.test.ts); the refusals are the
 * real core's, over a workspace of this file's own.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Progress } from '../../src/progress.js';
import { workbenchCore, type WorkbenchCore } from '../../src/pipeline/workbench-core.js';
import type { RepoImage } from '../../src/sandbox/repo-images.js';
import { Store } from '../../src/store/store.js';
import { ImageAdoptionError, ImageNotFoundError } from '../../src/errors.js';
import { ADOPT_LOG_LINES, adoptPanelLines, initialImageAdopt, reduceImageAdopt, refusalHint } from '../../src/ui/use-image-adopt.js';
import { fits } from '../helpers/terminal.js';
import { openWorkbench } from '../helpers/workbench.js';
import { buildNoRepoImage } from '../helpers/lookalike-images.js';
import { HEALTHY } from '../helpers/workspace.js';

const SIZE = { columns: 80, rows: 24 };
const SWEB = 'sweb.eval.x86_64.knotcfg__knotcfg-1:latest';
const BUILT: RepoImage = {
  id: 'sha256:bb',
  tag: 'bugbench/repo-knotcfg:latest',
  repo: 'knotcfg',
  commit: '1111111111111111111111111111111111111111',
  created: '2026-11-26T15:00:00.000Z',
  sizeBytes: 300 * 1024 ** 2,
  bugs: 0,
  bugCounts: {},
  testCommand: 'python3 -m pytest -rA',
  language: 'python',
  root: '/repo',
  user: '',
  adopted: false,
};
const ADOPTED: RepoImage = { ...BUILT, id: 'sha256:aa', tag: SWEB, commit: '2222222222222222222222222222222222222222', created: '2026-11-26T14:00:00.000Z', root: '/testbed', user: 'root', adopted: true };

type Workbench = Awaited<ReturnType<typeof openWorkbench>>;
let workbench: Workbench | undefined;
afterEach(() => workbench?.unmount());

/** The frame's text as one line, its rows (and the details box's, less its border) joined where they were wrapped. */
const flat = (frame: string) =>
  frame
    .split('\n')
    .map((l) => l.replace(/^[│ ]+|[│ ]+$/g, ''))
    .join(' ')
    .replace(/\s+/g, ' ');

describe('the adoption panel', () => {
  it('keeps the latest progress lines, and forgets a refusal when asked again or when another piece of work takes the panel', () => {
    let state = reduceImageAdopt(initialImageAdopt, { type: 'ask' });
    state = reduceImageAdopt(state, { type: 'text', text: 'img:1x' });
    state = reduceImageAdopt(state, { type: 'erase' });
    expect(state.typing).toBe('img:1');
    state = reduceImageAdopt(state, { type: 'start', name: 'img:1' });
    expect(state).toMatchObject({ typing: null, adopting: 'img:1' });
    // No second field while it adopts.
    expect(reduceImageAdopt(state, { type: 'ask' })).toBe(state);
    for (let i = 0; i < 20; i++) state = reduceImageAdopt(state, { type: 'progress', message: `line ${i}` });
    expect(state.log).toHaveLength(ADOPT_LOG_LINES);
    expect(state.log.at(-1)).toBe('line 19');
    state = reduceImageAdopt(state, { type: 'failed', message: 'no' });
    expect(state).toMatchObject({ adopting: null, error: 'no' });
    expect(reduceImageAdopt(state, { type: 'ask' })).toMatchObject({ typing: '', error: null });
    expect(reduceImageAdopt(state, { type: 'dismiss' })).toMatchObject({ error: null, adopted: null });
  });

  it('wraps a refusal whole: every word of it, no row wider than the terminal', () => {
    const message = `cannot adopt bugbench/base:bookworm: no git work tree at its WorkingDir (none) or /testbed, /repo, /app, /workspace, /src, /home/*, /work/*; name it with --root`;
    const lines = adoptPanelLines({ ...initialImageAdopt, error: message }, 80);
    expect(lines.length).toBeGreaterThan(1);
    expect(Math.max(...lines.map((l) => [...l.text].length))).toBeLessThanOrEqual(80);
    expect(lines.map((l) => l.text.trim()).join(' ')).toBe(message);
  });

  it('says how to name a root or a user when bugbench could not adopt an image it found, and nothing more for one that is not there', () => {
    const found = refusalHint('img:1', new ImageAdoptionError('img:1', 'no git work tree …; name it with --root'));
    expect(found.hint).toBe("to name its repository's root or the user to run as, from a shell: bugbench images add img:1 --root PATH --user U");
    expect(refusalHint('img:1', new ImageNotFoundError('img:1'))).toEqual({});
    const state = reduceImageAdopt(reduceImageAdopt(initialImageAdopt, { type: 'start', name: 'img:1' }), { type: 'failed', message: 'cannot adopt img:1: …', ...found });
    expect(adoptPanelLines(state, 200).map((l) => l.tone)).toEqual(['error', 'hint']);
    expect(reduceImageAdopt(state, { type: 'ask' }).hint).toBeNull();
  });
});

describe('adopting an image from the Images screen (issue 29, item 1)', () => {
  it('takes a name (digits and q are text), shows the progress, then lists the image marked as adopted, with its root, and selects it', async () => {
    let adopted = false;
    const asked: string[] = [];
    let finish: (() => void) | undefined;
    let say: Progress = () => undefined;
    const real = workbenchCore(Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-adopt-ui-')) }));
    const core: WorkbenchCore = {
      ...real,
      diagnose: async () => HEALTHY,
      engines: async () => [],
      listImages: async () => (adopted ? [BUILT, ADOPTED] : [BUILT]),
      adoptImage: (name, progress) => {
        asked.push(name);
        say = progress;
        return new Promise((resolve) => {
          finish = () => {
            adopted = true;
            resolve({ tag: SWEB, root: '/testbed' });
          };
        });
      },
    };
    workbench = await openWorkbench(core, SIZE);
    const { frame, until, press, stdin } = workbench;
    await until(() => expect(frame()).toMatch(/a adopt/));
    expect(frame()).not.toContain('adopted');

    await press('a', 'adopt the image named:');
    stdin.write(SWEB.slice(0, 20));
    stdin.write('q');
    stdin.write('\u007F');
    stdin.write(SWEB.slice(20));
    await until(() => expect(frame()).toContain('knotcfg-1:latest'));
    expect(frame()).toContain('[1 Images]');
    stdin.write('\r');
    await until(() => expect(frame()).toContain(`adopting ${SWEB}…`));
    expect(asked).toEqual([SWEB]);
    say('looking at the image (aa)');
    say('found the repository at /testbed (root, uid 0), commit 2222222222');
    await until(() => expect(frame()).toContain('found the repository at /testbed'));
    expect(frame()).toContain('looking at the image');

    finish!();
    await until(() => expect(flat(frame())).toContain(`adopted ${SWEB} (repository at /testbed); it is selected`));
    const shown = frame();
    // Its row is the selected one, marked with where its repository is; the built image's row is not marked.
    const rows = shown.split('\n');
    expect(rows.find((r) => r.startsWith('› '))).toMatch(/^› sweb\.eval\.\S* +knotcfg +python adopted \/testbed 2222222222 0 valid/);
    expect(rows.find((r) => r.includes('bugbench/repo-'))).not.toContain('adopted');
    expect(flat(shown)).toContain(`adopted ${SWEB} as it is: repository at /testbed, runs as root`);
    const { lines, widest } = fits(shown, SIZE);
    expect(widest).toBeLessThanOrEqual(SIZE.columns);
    expect(lines).toBeLessThan(SIZE.rows);

    // The built image says it is bugbench's.
    stdin.write('k');
    await until(() => expect(flat(frame())).toContain('built bugbench/repo-knotcfg:latest by bugbench: repository at /repo'));
    // b puts away what the adoption said.
    await press('b', 'build an image from the git repository at:');
    expect(frame()).not.toContain('it is selected');
    stdin.write('\u001B');
    await until(() => expect(frame()).not.toContain('build an image from'));
    await press('?', 'Keys of Images');
    expect(frame()).toMatch(/a +adopt an image bugbench did not build/);
  });
});

describe('an adoption refused, over the real core', () => {
  const home = mkdtempSync(join(tmpdir(), 'bugbench-adopt-ui-home-'));
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.BUGBENCH_HOME;
    process.env.BUGBENCH_HOME = home;
  });
  afterAll(() => {
    process.env.BUGBENCH_HOME = before;
  });

  it('shows why, whole and wrapped at 80 columns, and records nothing: an image that does not exist, one with no work tree', async () => {
    const { tag: noRepo } = await buildNoRepoImage();
    const real = workbenchCore(Store.open({ root: home }));
    const listed: RepoImage[][] = [];
    const core: WorkbenchCore = {
      ...real,
      diagnose: async () => HEALTHY,
      listImages: async () => {
        const images = await real.listImages();
        listed.push(images);
        return images;
      },
    };
    workbench = await openWorkbench(core, SIZE);
    const { frame, until, press, stdin } = workbench;

    await press('a', 'adopt the image named:');
    stdin.write('no-such-image:nope');
    stdin.write('\r');
    await until(() => expect(flat(frame())).toContain('image no-such-image:nope does not exist; pull it first (`docker pull no-such-image:nope`, or `podman pull` on Podman) and adopt it again'));
    expect(fits(frame(), SIZE).widest).toBeLessThanOrEqual(SIZE.columns);
    expect(frame()).not.toContain('from a shell');

    await press('a', 'adopt the image named:');
    expect(frame()).not.toContain('does not exist');
    stdin.write(noRepo);
    stdin.write('\r');
    await until(() => expect(flat(frame())).toMatch(/cannot adopt example\/no-repo:1\.0: no git work tree at its WorkingDir \(\/srv\) or \/testbed, \/repo, \/app, \/workspace, \/src, \/home\/\*, \/work\/\*; name it with --root/), 60_000);
    expect(flat(frame())).toContain(`from a shell: bugbench images add ${noRepo} --root PATH --user U`);
    const { lines, widest } = fits(frame(), SIZE);
    expect(widest).toBeLessThanOrEqual(SIZE.columns);
    expect(lines).toBeLessThan(SIZE.rows);

    expect(existsSync(join(home, 'adopted-images.json'))).toBe(false);
    // The list was not read again for a refusal, and holds no adopted image.
    expect(listed).toHaveLength(1);
    expect(listed[0]!.filter((i) => i.adopted)).toEqual([]);
  }, 90_000);
});
