/**
 * Slurm runs a job as its owner, never as root. When bugbench itself runs as
 * root on a node of the cluster (the local cluster of scripts/slurm-up), the
 * job's folder is handed to the job user and checked from that user's side
 * before submitting, so a folder it cannot reach fails here with a clear
 * message instead of as a job with no output. Elsewhere (a remote cluster on a
 * shared filesystem, bugbench running as the job user) nothing is done.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JobSpecError } from '../../errors.js';

export interface Account {
  uid: number;
  gid: number;
}

/** The user's ids from an /etc/passwd text, or null. */
export function findAccount(passwd: string, user: string): Account | null {
  for (const line of passwd.split('\n')) {
    const fields = line.split(':');
    if (fields[0] === user && fields.length >= 4) {
      const uid = Number(fields[2]);
      const gid = Number(fields[3]);
      if (Number.isInteger(uid) && Number.isInteger(gid)) return { uid, gid };
    }
  }
  return null;
}

function localAccount(user: string): Account | null {
  try {
    return findAccount(readFileSync('/etc/passwd', 'utf8'), user);
  } catch {
    return null;
  }
}

/** Gives `workdir` to `user` and checks the user can write there and read the dataset (only when we are root and the user is local). */
export function prepareForJobUser(user: string | undefined, workdir: string, dataset: string): void {
  if (!user || process.getuid?.() !== 0) return;
  const account = localAccount(user);
  if (!account || account.uid === 0) return;
  if (statSync(workdir).uid !== account.uid) chownSync(workdir, account.uid, account.gid);
  const check = spawnSync(
    'setpriv',
    [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--init-groups', '--', 'test', '-w', workdir, '-a', '-x', workdir, '-a', '-r', dataset],
    { stdio: 'ignore' },
  );
  if (check.error) return; // no setpriv here: let Slurm tell
  if (check.status !== 0) {
    throw new JobSpecError(
      `the Slurm job user "${user}" cannot write to ${workdir} or read ${dataset} (a folder on the way is closed to it, e.g. under /root); ` +
        'put the workspace where that user can reach it (BUGBENCH_HOME=/tmp/… or a shared filesystem)',
    );
  }
}

function chownTree(path: string, account: Account): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.uid !== account.uid) chownSync(path, account.uid, account.gid);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) chownTree(join(path, entry), account);
}

/** Runs `test` as the account; true when it succeeds (or setpriv is missing: let the job tell). */
function canAs(account: Account, args: string[]): boolean {
  const check = spawnSync('setpriv', [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--init-groups', '--', 'test', ...args], { stdio: 'ignore' });
  return check.error !== undefined || check.status === 0;
}

/**
 * Cluster tasks of an injection or solving run write into the workspace as the
 * job user. When bugbench runs as root on a node of the cluster, the parts
 * they write (the store, the run's folder, bugs/) are handed to that user, and
 * it is checked that the user can run bugbench and reach the node's Docker
 * engine; anything it cannot is an error that says what to change.
 */
export function shareWorkspaceWithJobUser(user: string | undefined, workspace: string, parts: { tree: string[]; dirs: string[] }, needs: { program: string; dockerSocket?: string }): void {
  if (!user || process.getuid?.() !== 0) return;
  const account = localAccount(user);
  if (!account || account.uid === 0) return;
  for (const dir of [workspace, ...parts.dirs]) {
    mkdirSync(dir, { recursive: true });
    if (statSync(dir).uid !== account.uid) chownSync(dir, account.uid, account.gid);
  }
  if (!canAs(account, ['-w', workspace])) {
    throw new JobSpecError(
      `the Slurm job user "${user}" cannot reach the workspace ${workspace} (a folder on the way is closed to it, e.g. under /root); ` +
        'put the workspace where that user can reach it (BUGBENCH_HOME=/tmp/… or a shared filesystem)',
    );
  }
  for (const tree of parts.tree) chownTree(tree, account);
  if (!canAs(account, ['-r', needs.program])) {
    throw new JobSpecError(`the Slurm job user "${user}" cannot read ${needs.program}; install bugbench where that user can run it (not under /root)`);
  }
  if (needs.dockerSocket && !canAs(account, ['-w', needs.dockerSocket])) {
    throw new JobSpecError(
      `the Slurm job user "${user}" cannot use the Docker engine at ${needs.dockerSocket}; give it access (e.g. \`usermod -aG docker ${user}\`, which scripts/slurm-up does) and let slurmctld see the new group (GroupUpdateTime, or restart it)`,
    );
  }
}
