import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fileRefusal, folderRefusal, openOutFile } from '../../../src/datasets/out-target.js';

const dir = () => mkdtempSync(join(tmpdir(), 'bugbench-out-target-'));

describe('the target of a file export', () => {
  it('takes a new path or a regular file, and replaces the file whole at the end', async () => {
    const root = dir();
    expect(fileRefusal(join(root, 'new.jsonl'))).toBeUndefined();
    const existing = join(root, 'old.jsonl');
    writeFileSync(existing, 'old\n');
    expect(fileRefusal(existing)).toBeUndefined();
    const file = openOutFile(existing);
    await file.write('new\n');
    expect(readFileSync(existing, 'utf8')).toBe('old\n');
    file.commit();
    expect(readFileSync(existing, 'utf8')).toBe('new\n');
    expect(readdirSync(root).sort()).toEqual(['old.jsonl']);
  });

  it('refuses a folder, a symbolic link and a device, naming what each is', () => {
    const root = dir();
    mkdirSync(join(root, 'folder'));
    writeFileSync(join(root, 'real.jsonl'), 'mine\n');
    symlinkSync(join(root, 'real.jsonl'), join(root, 'link.jsonl'));
    expect(fileRefusal(join(root, 'folder'))).toMatch(/ is a folder, not a regular file; give a new path or a regular file \(or - for standard output\)$/);
    expect(fileRefusal(join(root, 'link.jsonl'))).toMatch(/ is a symbolic link, not a regular file/);
    expect(fileRefusal('/dev/null')).toBe('/dev/null is a character device, not a regular file; give a new path or a regular file (or - for standard output)');
    expect(() => openOutFile('/dev/null')).toThrow(/^cannot write \/dev\/null: \/dev\/null is a character device/);
    expect(() => openOutFile(join(root, 'link.jsonl'))).toThrow(/is a symbolic link/);
    expect(lstatSync(join(root, 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync(root).sort()).toEqual(['folder', 'link.jsonl', 'real.jsonl']);
  });

  it('writes to standard output for - and /dev/stdout, creating no file', async () => {
    const root = dir();
    for (const name of ['-', '/dev/stdout']) {
      const stream = new PassThrough();
      let seen = '';
      stream.on('data', (chunk: Buffer) => (seen += chunk.toString()));
      const file = openOutFile(name, stream);
      expect(file.where).toBe('standard output');
      await file.write('{"a":1}\n');
      file.commit();
      expect(seen).toBe('{"a":1}\n');
    }
    expect(existsSync(join(process.cwd(), '-'))).toBe(false);
    expect(readdirSync(root)).toEqual([]);
  });

  it('leaves nothing behind when abandoned', async () => {
    const root = dir();
    const file = openOutFile(join(root, 'x.jsonl'));
    await file.write('half');
    file.abandon();
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('the target of a folder export', () => {
  it('refuses standard output, a link to a folder and a device, and takes an empty folder', () => {
    const root = dir();
    mkdirSync(join(root, 'empty'));
    symlinkSync(join(root, 'empty'), join(root, 'link'));
    expect(folderRefusal('-')).toBe('this format writes a folder, which cannot go to standard output; give --out DIR');
    expect(folderRefusal(join(root, 'link'))).toMatch(/ is a symbolic link, not a folder; give a new path or an empty folder$/);
    expect(folderRefusal('/dev/null')).toBe('/dev/null is a character device, not a folder; give a new path or an empty folder');
    expect(folderRefusal(join(root, 'empty'))).toBeUndefined();
    expect(folderRefusal(join(root, 'new'))).toBeUndefined();
  });

  it('replaces an earlier export of the same format, and refuses one of another format instead of deleting it', () => {
    const root = dir();
    const earlier = join(root, 'harbor-out');
    mkdirSync(earlier);
    writeFileSync(join(earlier, '.bugbench-export.json'), JSON.stringify({ format: 'harbor', tasks: [] }));
    expect(folderRefusal(earlier, 'harbor')).toBeUndefined();
    expect(folderRefusal(earlier, 'trajectories')).toBe(`${earlier} holds a harbor export, which a trajectories export would replace; give another folder (or remove that one first)`);
  });
});
