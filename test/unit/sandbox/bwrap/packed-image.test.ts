import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { imageNames } from '../../../../src/sandbox/bwrap/pack.js';
import { IMAGE_CONFIG_PATH, packedFileName, readPackedConfig } from '../../../../src/sandbox/bwrap/packed-image.js';

const dir = mkdtempSync(join(tmpdir(), 'bb-packed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A squashfs holding one file at the packed config's place. */
function squashfsWith(name: string, config: string): string {
  const root = join(dir, `${name}-root`);
  mkdirSync(root);
  writeFileSync(join(root, IMAGE_CONFIG_PATH), config);
  const file = join(dir, `${name}.sqsh`);
  execFileSync('mksquashfs', [root, file, '-noappend', '-quiet', '-no-progress']);
  return file;
}

describe('packed images', () => {
  it('names files so that / and : cannot be confused, and adds the implied :latest', () => {
    expect(packedFileName('bugbench/repo-knotcfg:latest')).toBe('bugbench+repo-knotcfg@latest.sqsh');
    expect(packedFileName('bugbench/repo-knotcfg')).toBe('bugbench+repo-knotcfg@latest.sqsh');
    expect(packedFileName('localhost:5000/a/b:v1')).toBe('localhost:5000+a+b@v1.sqsh');
    expect(imageNames('bugbench/repo-knotcfg')).toEqual(['bugbench/repo-knotcfg', 'bugbench/repo-knotcfg:latest']);
    expect(imageNames('x:1')).toEqual(['x:1']);
  });

  it('reads the configuration a pack wrote without unpacking the file', async () => {
    const config = { format: 1, names: ['a:1'], id: 'sha256:ab', labels: { k: 'v' }, workdir: '/repo', user: '', env: ['PATH=/usr/bin'], sizeBytes: 3, packedAt: 'now' };
    const file = squashfsWith('good', JSON.stringify(config));
    expect(await readPackedConfig(file)).toEqual(config);
  });

  it('refuses a file whose configuration bugbench did not write, saying to pack again', async () => {
    const file = squashfsWith('bad', JSON.stringify({ format: 1, names: 'a:1' }));
    await expect(readPackedConfig(file)).rejects.toThrow(/names and env must be lists of strings\); pack it again/);
    const notJson = squashfsWith('text', 'hello');
    await expect(readPackedConfig(notJson)).rejects.toThrow(/not one bugbench wrote/);
    await expect(readPackedConfig(join(dir, 'missing.sqsh'))).rejects.toThrow(/not a packed image bugbench can read/);
  });
});
