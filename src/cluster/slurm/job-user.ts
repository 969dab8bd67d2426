/**
 * Slurm runs a job as its owner, never as root. When bugbench itself runs as
 * root on a node of the cluster (the local cluster of scripts/slurm-up), the
 * job's folder is handed to the job user and checked from that user's side
 * before submitting, so a folder it cannot reach fails here with a clear
 * message instead of as a job with no output. Elsewhere (a remote cluster on a
 * shared filesystem, bugbench running as the job user) nothing is done.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JobSpecError } from '../../errors.js';
import { DEFAULT_ENGINE_HOST } from '../../sandbox/engine-config.js';
import { hasSubordinateRange } from '../../sandbox/subids.js';
import { podmanUserSocket } from '../../sandbox/node-engine.js';
import { packedImageFolders } from '../task-engines.js';
import { jobBwrapSandboxes, type JobSandboxes } from './job-bwrap.js';

const DOCKER_SOCKET = DEFAULT_ENGINE_HOST.slice('unix://'.length);

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
      `the Slurm job user "${user}" cannot write to ${workdir} or read ${dataset} (${closedOnTheWay(account, workdir)}); ` +
        'put the workspace where that user can reach it (BUGBENCH_HOME=/tmp/… or a shared filesystem), or open that folder to it',
    );
  }
}

/**
 * Which folder on the way to `path` the account cannot enter, with its mode
 * and owner ("/root/ws is closed to it: mode 700, owner uid 0"), or the
 * general cause when each can be entered.
 */
function closedOnTheWay(account: Account, path: string): string {
  const parts = resolve(path).split('/').filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const folder = `/${parts.slice(0, i).join('/')}`;
    const stat = statSync(folder, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) break;
    if (!canAs(account, ['-x', folder])) return `${folder} is closed to it: mode ${(stat.mode & 0o777).toString(8)}, owner uid ${stat.uid}`;
  }
  return 'a folder on the way is closed to it, or the file to it';
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

/** The account's home folder from /etc/passwd ('' when unknown). */
function homeOf(user: string): string {
  try {
    const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.split(':')[0] === user);
    return line?.split(':')[5] ?? '';
  } catch {
    return '';
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Which engine the containers of `user`'s cluster tasks use on this node, as
 * a task picks it (sandbox/node-engine.ts): the Docker engine if the user may
 * use its socket, else the user's own rootless Podman (installed, with subuid
 * ranges and a home for its images). Undefined when this cannot be told from
 * here (the user is not local, or bugbench is neither root nor that user) or
 * the user has neither.
 */
export function jobContainerEngine(user: string, dockerSocket = DOCKER_SOCKET): string | undefined {
  const account = localAccount(user);
  const me = process.getuid?.();
  if (!account || (me !== 0 && me !== account.uid)) return undefined;
  if (existsSync(dockerSocket) && canAs(account, ['-w', dockerSocket])) return `Docker at unix://${dockerSocket} (${user} may use its socket)`;
  const home = homeOf(user);
  const podman = ['/usr/bin/podman', '/usr/local/bin/podman'].some((p) => existsSync(p));
  const ranges = hasSubordinateRange(readOr('/etc/subuid'), user, account.uid) && hasSubordinateRange(readOr('/etc/subgid'), user, account.uid);
  if (podman && ranges && home && canAs(account, ['-w', home])) {
    const socket = podmanUserSocket(account.uid, {}, existsSync);
    return `${user}'s rootless Podman (${existsSync(socket) ? `its service at unix://${socket}` : 'each task starts its own service'}; no Docker engine ${user} may use)`;
  }
  return undefined;
}

/**
 * What `user`'s cluster tasks will run their sandboxes on: the bwrap
 * sandboxes `taskEngines` (their DOCKER_HOST, see cluster/task-engines.ts)
 * names, tried from that user's side, or else the node's engine as
 * jobContainerEngine finds it. Undefined when this cannot be told from here.
 */
export function jobSandboxes(user: string, taskEngines: string | undefined): JobSandboxes | undefined {
  const account = localAccount(user);
  const me = process.getuid?.();
  if (!account || (me !== 0 && me !== account.uid)) return undefined;
  if (taskEngines) return jobBwrapSandboxes(user, account, packedImageFolders(taskEngines));
  const engine = jobContainerEngine(user);
  return engine ? { ok: true, description: engine } : undefined;
}

/**
 * Cluster tasks of an injection or solving run write into the workspace as the
 * job user. When bugbench runs as root on a node of the cluster, the parts
 * they write (the store, the run's folder, bugs/) are handed to that user, and
 * it is checked that the user can run bugbench and has somewhere to run
 * sandboxes: the bwrap sandboxes the tasks are given (`taskEngines`), else a
 * container engine (Docker's socket, or a rootless Podman of its own);
 * anything it cannot is an error that says what to change.
 */
export function shareWorkspaceWithJobUser(user: string | undefined, workspace: string, parts: { tree: string[]; dirs: string[] }, needs: { program: string; engine?: boolean; taskEngines?: string }): void {
  if (!user || process.getuid?.() !== 0) return;
  const account = localAccount(user);
  if (!account || account.uid === 0) return;
  for (const dir of [workspace, ...parts.dirs]) {
    mkdirSync(dir, { recursive: true });
    if (statSync(dir).uid !== account.uid) chownSync(dir, account.uid, account.gid);
  }
  if (!canAs(account, ['-w', workspace])) {
    throw new JobSpecError(
      `the Slurm job user "${user}" cannot reach the workspace ${workspace} (${closedOnTheWay(account, workspace)}); ` +
        'put the workspace where that user can reach it (BUGBENCH_HOME=/tmp/… or a shared filesystem), or open that folder to it',
    );
  }
  for (const tree of parts.tree) chownTree(tree, account);
  if (!canAs(account, ['-r', needs.program])) {
    throw new JobSpecError(`the Slurm job user "${user}" cannot run ${needs.program}; install bugbench where that user can run it (not under /root)`);
  }
  if (needs.engine && needs.taskEngines) {
    const sandboxes = jobBwrapSandboxes(user, account, packedImageFolders(needs.taskEngines));
    if (!sandboxes.ok) throw new JobSpecError(sandboxes.problem);
  } else if (needs.engine && !jobContainerEngine(user)) {
    throw new JobSpecError(
      `the Slurm job user "${user}" has no container engine on this node: it cannot use the Docker engine at ${DOCKER_SOCKET}, and has no rootless Podman. ` +
        `Give it access to Docker (e.g. \`usermod -aG docker ${user}\`, then let slurmctld see the new group: GroupUpdateTime, or restart it), ` +
        `or install Podman (apt-get install podman catatonit uidmap) and give it subuid/subgid ranges and a home (scripts/podman-up --user ${user} sets this up)`,
    );
  }
}
