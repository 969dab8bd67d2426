import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { workbenchCore } from '../../src/pipeline/workbench-core.js';
import { reduceImageBuild, initialImageBuild, BUILD_LOG_LINES } from '../../src/ui/use-image-build.js';
import { keptTag } from '../../src/bugs/bug-image.js';
import { makeGitRepo } from '../helpers/git-repo.js';
import { bugRecord } from '../helpers/records.js';
import { fits, renderIn } from '../helpers/terminal.js';

const SIZE = { columns: 80, rows: 24 };
const TAG = 'bugbench/repo-uibuildlib:latest';
const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-images-ui-')) });
const core = workbenchCore(store);

afterAll(async () => {
  // The tag and every image a rebuild kept by id.
  const images = await dockerClient().listImages({ filters: { reference: [TAG.split(':')[0]!] } });
  const tags = images.flatMap((i) => i.RepoTags ?? []);
  for (const image of new Set([TAG, ...tags])) await dockerClient().getImage(image).remove({ force: true }).catch(() => undefined);
});

// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\u001B\[[0-9;]*m/g, '');

async function typeText(stdin: { write: (s: string) => void }, text: string): Promise<void> {
  for (const char of text) {
    stdin.write(char);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('building an image from the Images screen', () => {
  it('keeps only the latest progress lines and forgets an error on the next try', () => {
    let state = reduceImageBuild(initialImageBuild, { type: 'start', dir: '/x' });
    for (let i = 0; i < 20; i++) state = reduceImageBuild(state, { type: 'progress', message: `line ${i}` });
    expect(state.log).toHaveLength(BUILD_LOG_LINES);
    expect(state.log.at(-1)).toBe('line 19');
    state = reduceImageBuild(state, { type: 'failed', message: 'no' });
    expect(reduceImageBuild(state, { type: 'ask' })).toMatchObject({ typing: '', error: null });
  });

  it('says in place why a path cannot be built, then builds a git repository with its progress and selects the image', async () => {
    const dir = await makeGitRepo('uibuildlib', [
      { message: 'Add it', files: { 'uibuildlib/__init__.py': 'def half(x):\n    return x / 2\n', 'tests/test_half.py': 'from uibuildlib import half\n\ndef test_half():\n    assert half(4) == 2\n' } },
    ]);
    const term = renderIn(<App core={core} />, SIZE);
    const frame = () => plain(term.lastFrame());
    try {
      await vi.waitFor(() => expect(frame()).toContain('Repo images'), { timeout: 30_000 });
      // The engine runs go to, as doctor found it.
      await vi.waitFor(() => expect(frame()).toMatch(/engine: e1 ✓ \S+, \d+ slots?/), { timeout: 30_000 });
      term.stdin.write('b');
      await vi.waitFor(() => expect(frame()).toContain('build an image from the git repository at:'), { timeout: 5_000 });
      // Digits and q are text here: they neither switch screens nor quit.
      await typeText(term.stdin, '/nowhere/q1');
      term.stdin.write('\r');
      await vi.waitFor(() => expect(frame()).toMatch(/The build failed: \/nowhere\/q1 does not exist/), { timeout: 10_000 });
      expect(frame()).toContain('[1 Images]');

      term.stdin.write('b');
      await vi.waitFor(() => expect(frame()).toContain('build an image from the git repository at:'), { timeout: 5_000 });
      await typeText(term.stdin, dir);
      term.stdin.write('\r');
      await vi.waitFor(() => expect(frame()).toMatch(new RegExp(`building ${dir.replace(/[/.]/g, '\\$&').slice(0, 20)}`)), { timeout: 10_000 });
      const progress = frame();
      expect(progress).toMatch(/cloning|committed|labell|image/i);
      await vi.waitFor(() => expect(frame()).toContain(`built ${TAG}; it is selected`), { timeout: 120_000 });
      expect(frame()).toMatch(new RegExp(`› ${TAG.replace(/[/.]/g, '\\$&')}`));
      const { lines, widest } = fits(term.lastFrame(), SIZE);
      expect(widest).toBeLessThanOrEqual(SIZE.columns);
      expect(lines).toBeLessThan(SIZE.rows);
    } finally {
      term.unmount();
    }
  }, 180_000);

  it('says, after a rebuild of a tag that bugs are on, where the image they were checked on is kept (issue 34, item 7)', async () => {
    const dir = await makeGitRepo('uibuildlib', [{ message: 'Add it', files: { 'uibuildlib/__init__.py': 'def half(x):\n    return x / 2\n', 'tests/test_half.py': 'from uibuildlib import half\n\ndef test_half():\n    assert half(4) == 2\n' } }]);
    store.transact((tx) => tx.put('bugs', bugRecord('uibuildlib-removal-aaaa1111', { image: TAG })));
    const term = renderIn(<App core={core} />, SIZE);
    const frame = () => plain(term.lastFrame());
    const build = async () => {
      term.stdin.write('b');
      await vi.waitFor(() => expect(frame()).toContain('build an image from the git repository at:'), { timeout: 5_000 });
      await typeText(term.stdin, dir);
      term.stdin.write('\r');
      await vi.waitFor(() => expect(frame()).toContain(`built ${TAG}; it is selected`), { timeout: 120_000 });
    };
    try {
      await vi.waitFor(() => expect(frame()).toContain('Repo images'), { timeout: 30_000 });
      // Twice, so that the tag names an image before the build that is watched.
      await build();
      const before = ((await dockerClient().getImage(TAG).inspect()) as { Id: string }).Id;
      await build();
      const kept = keptTag(TAG, before);
      await vi.waitFor(() => expect(frame()).toContain(`old image kept as ${kept} for its 1 bug(s)`), { timeout: 10_000 });
      expect(((await dockerClient().getImage(kept).inspect()) as { Id: string }).Id).toBe(before);
      const { lines } = fits(term.lastFrame(), SIZE);
      expect(lines).toBeLessThan(SIZE.rows);
    } finally {
      term.unmount();
    }
  }, 300_000);
});

