import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';

/** Makes a git repository in a new temp folder from `commits` (each a message and files), returns its path. */
export async function makeGitRepo(name: string, commits: { message: string; files: Record<string, string> }[]): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'bugbench-repo-')), name);
  mkdirSync(dir);
  const git = (...args: string[]) =>
    execa('git', ['-c', 'user.name=Test Author', '-c', 'user.email=author@example.com', ...args], { cwd: dir });
  await git('init', '-q', '-b', 'main');
  for (const commit of commits) {
    for (const [path, content] of Object.entries(commit.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    await git('add', '-A');
    await git('commit', '-qm', commit.message);
  }
  return dir;
}
