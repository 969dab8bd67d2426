/**
 * Where `export --out` writes (issue 34, item 1): standard output for - and
 * /dev/stdout, read by a child process at the other end of a pipe; and a
 * refusal, leaving the place as it was, for a folder, a symbolic link or a
 * device, which a rename would have replaced with a plain file.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, bugbench } from '../helpers/cli.js';
import { seedExportableBugs } from '../helpers/exportable-bugs.js';

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'bugbench-export-out-'));
  seedExportableBugs(root, [{ id: 'img-removal-aaaa1111', fields: { status: 'accepted' } }, { id: 'img-removal-bbbb2222', fields: { status: 'accepted', fingerprint: 'g' } }]);
  return root;
}

describe('export --out', () => {
  it('writes the dataset down a pipe for - and /dev/stdout, the summary on stderr, and makes no file', async () => {
    const root = workspace();
    // '-' first: a build that wrote it as a file stops the test before it could rename over the machine's /dev/stdout.
    for (const out of ['-', '/dev/stdout']) {
      // The reader is a child at the other end of a pipe, as in `bugbench export … | head`.
      const piped = await execa('bash', ['-c', `node ${BIN} export --format swebench --out ${out} 2>summary.txt | cat > got.jsonl; echo "\${PIPESTATUS[0]}"`], { cwd: root, env: { BUGBENCH_HOME: root } });
      expect(piped.stdout.trim()).toBe('0');
      const lines = readFileSync(join(root, 'got.jsonl'), 'utf8').trim().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as { instance_id: string }).instance_id).sort()).toEqual(['img-removal-aaaa1111', 'img-removal-bbbb2222']);
      expect(readFileSync(join(root, 'summary.txt'), 'utf8')).toBe('2 swebench line(s) from 2 accepted bug(s) written to standard output\n');
      expect(existsSync(join(root, '-'))).toBe(false);
    }
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
    // A reader that stops early ends the export quietly.
    const head = await execa('bash', ['-c', `node ${BIN} export --format swebench --out - | head -c 200`], { cwd: root, env: { BUGBENCH_HOME: root } });
    expect(head.stdout).toHaveLength(200);
    expect(head.stderr).not.toMatch(/EPIPE|Error/);
  });

  it('refuses a folder, a symbolic link and a device, leaving each as it was', async () => {
    const root = workspace();
    const env = { BUGBENCH_HOME: root };
    mkdirSync(join(root, 'folder'));
    writeFileSync(join(root, 'mine.jsonl'), 'mine\n');
    symlinkSync(join(root, 'mine.jsonl'), join(root, 'link.jsonl'));
    const folder = await bugbench(['export', '--format', 'swebench', '--out', join(root, 'folder')], { env });
    expect(folder.exitCode).toBe(1);
    expect(folder.stderr.trim()).toBe(`bugbench: cannot write ${join(root, 'folder')}: ${join(root, 'folder')} is a folder, not a regular file; give a new path or a regular file (or - for standard output)`);
    const link = await bugbench(['export', '--format', 'rl', '--out', join(root, 'link.jsonl')], { env });
    expect(link.exitCode).toBe(1);
    expect(link.stderr).toMatch(/is a symbolic link, not a regular file/);
    expect(lstatSync(join(root, 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root, 'mine.jsonl'), 'utf8')).toBe('mine\n');
    // As root, a node of its own for /dev/null's device: a regression then replaces that node, not the machine's /dev/null.
    const devNull = process.getuid?.() === 0 ? join(root, 'null') : '/dev/null';
    if (devNull !== '/dev/null') await execa('mknod', [devNull, 'c', '1', '3']);
    const device = await bugbench(['export', '--format', 'swebench', '--out', devNull], { env });
    expect(device.exitCode).toBe(1);
    expect(device.stderr.trim()).toBe(`bugbench: cannot write ${devNull}: ${devNull} is a character device, not a regular file; give a new path or a regular file (or - for standard output)`);
    expect(lstatSync(devNull).isCharacterDevice()).toBe(true);
    // A folder format refuses standard output and a link in place of its folder.
    const harbor = await bugbench(['export', '--format', 'harbor', '--out', '-'], { env });
    expect(harbor.stderr.trim()).toBe('bugbench: cannot write -: this format writes a folder, which cannot go to standard output; give --out DIR');
    symlinkSync(join(root, 'folder'), join(root, 'folder-link'));
    const folderLink = await bugbench(['export', '--format', 'trajectories', '--out', join(root, 'folder-link')], { env });
    expect(folderLink.stderr).toMatch(/folder-link is a symbolic link, not a folder/);
    expect(lstatSync(join(root, 'folder-link')).isSymbolicLink()).toBe(true);
    const json = await bugbench(['export', '--format', 'swebench', '--out', '-', '--json'], { env });
    expect(json.exitCode).toBe(2);
    expect(json.stderr.trim()).toBe('bugbench: export: --json and --out - both write to standard output; give --out a file');
    expect(readdirSync(root).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });
});

describe('which bugs export takes', () => {
  it('queue submit counts one of each bug, as its dataset holds them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-export-repeats-'));
    // Two accepted copies of one bug (a workspace from before duplicates were told apart): the dataset holds one.
    seedExportableBugs(root, [
      { id: 'img-removal-aaaa1111', fields: { status: 'accepted', fingerprint: 'same' } },
      { id: 'img-removal-bbbb2222', fields: { status: 'accepted', fingerprint: 'same' } },
    ]);
    const submitted = await bugbench(['queue', 'submit', '--engine', 'local', '--format', 'swebench', '--json'], { env: { BUGBENCH_HOME: root } });
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    expect(JSON.parse(submitted.stdout)).toMatchObject({ bugCount: 1, lines: 1 });
  });


  it('says why an export is empty when valid bugs wait for review, and takes one image with --image', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-export-filter-'));
    const env = { BUGBENCH_HOME: root };
    seedExportableBugs(root, [
      { id: 'img-removal-aaaa1111', fields: { fingerprint: 'a' } },
      { id: 'img-removal-bbbb2222', fields: { fingerprint: 'b' } },
      { id: 'other-removal-cccc3333', fields: { image: 'other:2', fingerprint: 'c' } },
    ]);
    // An export of nothing writes nothing: a dataset already at --out stays, a new path is not made, and the exit says so.
    writeFileSync(join(root, 'kept.jsonl'), '{"instance_id": "from-before"}\n');
    const empty = await bugbench(['export', '--format', 'swebench', '--out', join(root, 'kept.jsonl')], { env });
    expect(empty.exitCode).toBe(1);
    expect(empty.stdout.trim()).toBe(`0 swebench line(s) from 0 accepted bug(s), so nothing was written: ${join(root, 'kept.jsonl')} is left as it was`);
    expect(readFileSync(join(root, 'kept.jsonl'), 'utf8')).toBe('{"instance_id": "from-before"}\n');
    const none = await bugbench(['export', '--format', 'harbor', '--out', join(root, 'tasks')], { env });
    expect(none.exitCode).toBe(1);
    expect(none.stdout.trim()).toBe(`0 Harbor task folder(s) from 0 accepted bug(s), so nothing was written: ${join(root, 'tasks')} was not made`);
    expect(existsSync(join(root, 'tasks'))).toBe(false);
    expect(readdirSync(root).filter((name) => name.includes('.tmp-') || name.includes('staging'))).toEqual([]);
    expect(empty.stderr.trim()).toBe('no bug is accepted yet; 3 valid bug(s) wait for review (`bugbench accept <bug-id>`, or Review in `bugbench tui`), or export them unreviewed with --status valid');
    const otherEmpty = await bugbench(['export', '--format', 'sft', '--out', join(root, 'sft.jsonl'), '--image', 'other:2'], { env });
    expect(otherEmpty.stderr.trim()).toBe('no bug on other:2 is accepted yet; 1 valid bug(s) on other:2 wait for review (`bugbench accept <bug-id>`, or Review in `bugbench tui`), or export them unreviewed with --status valid');
    const one = await bugbench(['export', '--format', 'swebench', '--out', '-', '--status', 'valid', '--image', 'img:1'], { env });
    expect(one.exitCode).toBe(0);
    const images = one.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { image_name: string }).image_name);
    expect(images).toEqual(['img:1', 'img:1']);
    expect(one.stderr.trim()).toBe('2 swebench line(s) from 2 valid bug(s) on img:1 written to standard output');
    const unknown = await bugbench(['export', '--format', 'swebench', '--out', '-', '--image', 'nosuch:1'], { env });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr.trim()).toBe('bugbench: no image nosuch:1 in the workspace; its bugs are on img:1, other:2');
  });
});
