/**
 * Whether a Slurm job user's tasks can run bwrap sandboxes on this node,
 * tried from that user's side as a task would meet it: bwrap and unsquashfs
 * on the job's PATH, a sandbox bwrap can make (unprivileged user namespaces),
 * every folder of packed images and every image in it readable, and room for
 * the unpacked images in the user's folder under /tmp (the bwrap kind's
 * `$TMPDIR/bugbench-bwrap-UID`; Slurm gives jobs TMPDIR=/tmp unless the site
 * says otherwise).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PACKED_SUFFIX } from '../../sandbox/bwrap/packed-image.js';
import { DEFAULT_JOB_PATH } from './settings.js';

/** A local account's ids. */
interface Account {
  uid: number;
  gid: number;
}

export type JobSandboxes = { ok: true; description: string } | { ok: false; problem: string };

/** Runs `argv` as the account (directly when we are it), with a job's bare environment. */
function asAccount(account: Account, argv: string[]): { status: number | null; stdout: string; stderr: string; missing: boolean } {
  const command = process.getuid?.() === account.uid ? argv : ['setpriv', `--reuid=${account.uid}`, `--regid=${account.gid}`, '--init-groups', '--', ...argv];
  const run = spawnSync(command[0]!, command.slice(1), {
    encoding: 'utf8',
    env: { PATH: DEFAULT_JOB_PATH, LANG: 'C.UTF-8' },
    cwd: '/',
  });
  return { status: run.status, stdout: run.stdout ?? '', stderr: (run.stderr ?? '').trim(), missing: run.error !== undefined };
}

const INSTALL = 'install it on every node (Debian: apt-get install bubblewrap squashfs-tools)';

/** The problem the account would meet with sandboxes over `folders` on this node, or what its tasks will use. */
export function jobBwrapSandboxes(user: string, account: Account, folders: string[]): JobSandboxes {
  for (const tool of ['bwrap', 'unsquashfs']) {
    const found = asAccount(account, ['sh', '-c', 'command -v "$0"', tool]);
    // No setpriv here to try it: the task itself will tell.
    if (found.missing) return { ok: true, description: `bwrap sandboxes of ${user} over the packed images in ${folders.join(', ')} (not tried from here: no setpriv)` };
    if (found.status !== 0) return { ok: false, problem: `${tool} is not on the Slurm job's PATH (${DEFAULT_JOB_PATH}) on this node; ${INSTALL}` };
  }
  const sandbox = asAccount(account, ['bwrap', '--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', 'true']);
  if (sandbox.status !== 0) {
    return {
      ok: false,
      problem:
        `the Slurm job user "${user}" cannot make a bwrap sandbox on this node (${sandbox.stderr || `exit ${sandbox.status}`}); ` +
        'let ordinary users make user namespaces (sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0)',
    };
  }
  for (const folder of folders) {
    if (asAccount(account, ['test', '-r', folder, '-a', '-x', folder]).status !== 0) {
      return {
        ok: false,
        problem: `the Slurm job user "${user}" cannot read the folder of packed images ${folder} (it, or a folder on the way, is closed to that user); open it (chmod a+rx on each folder on the way) or pack the images where every job user can read them`,
      };
    }
    const packed = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(PACKED_SUFFIX)) : [];
    const closed = packed.filter((name) => asAccount(account, ['test', '-r', join(folder, name)]).status !== 0);
    if (closed.length > 0) return { ok: false, problem: `the Slurm job user "${user}" cannot read ${closed.map((name) => join(folder, name)).join(', ')}; chmod a+r them` };
  }
  const state = `/tmp/bugbench-bwrap-${account.uid}`;
  if (asAccount(account, ['sh', '-c', 'test -w "$0" -a -x "$0" || { test ! -e "$0" && test -w /tmp; }', state]).status !== 0) {
    return { ok: false, problem: `the Slurm job user "${user}" cannot write ${state}, where its tasks unpack the images (another user made it, or /tmp is closed); remove it, or give the jobs a TMPDIR of their own` };
  }
  const version = asAccount(account, ['bwrap', '--version']).stdout.trim().replace(/^bubblewrap\s+/, '');
  return { ok: true, description: `bwrap ${version} sandboxes of ${user} over the packed images in ${folders.join(', ')}, unpacked in ${state} (no container engine)` };
}
