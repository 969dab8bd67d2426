/** The folder given to build an image from (issue 34, item 11): `~` is the home folder, and a missing folder is said to be missing. */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expandHome } from '../../../src/paths.js';
import { workbenchCore } from '../../../src/pipeline/workbench-core.js';
import { Store } from '../../../src/store/store.js';

const savedHome = process.env.HOME;
afterEach(() => {
  process.env.HOME = savedHome;
});

describe('a folder to build from', () => {
  it('reads ~ and ~/… as the home folder, and resolves the rest from here', () => {
    expect(expandHome('~', '/home/r')).toBe('/home/r');
    expect(expandHome('~/src/btree', '/home/r')).toBe('/home/r/src/btree');
    expect(expandHome('a/~b', '/home/r')).toBe(join(process.cwd(), 'a/~b'));
    expect(expandHome('/abs/x', '/home/r')).toBe('/abs/x');
  });

  it('is expanded by the core the Images screen builds through, which tells a missing folder from one that is not a repository', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-home-'));
    mkdirSync(join(home, 'plain'));
    process.env.HOME = home;
    const core = workbenchCore(Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-build-path-')) }));
    await expect(core.buildImage('~/nosuch', () => undefined)).rejects.toThrow(`${home}/nosuch does not exist; give the folder of a git repository`);
    await expect(core.buildImage('~/plain', () => undefined)).rejects.toThrow(`${home}/plain is not a git repository`);
  });
});
