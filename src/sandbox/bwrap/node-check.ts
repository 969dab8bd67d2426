/**
 * What a node needs for the bwrap kind, for `doctor`: bwrap ≥ 0.8, user
 * namespaces an ordinary user may make (tried, and the sysctls that decide
 * it read), an overlay mounted inside one, unsquashfs and nsenter with
 * --wdns, the folder of packed images readable and holding some, and room
 * to unpack those not unpacked yet. `lacks` turns what was seen into what is
 * missing, each with the command that gives it.
 */
import { execFile } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, readFile, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '../../errors.js';
import type { EngineDiagnosis } from '../docker-api/engine-diagnosis.js';
import { probeSandbox } from '../probe.js';
import type { BwrapEngine } from './engine.js';
import { PACKED_SUFFIX, readPackedConfig } from './packed-image.js';
import { freeBytes, isUnpacked, unpackedImages } from './unpacked.js';
import { removeTree } from './tools.js';

const run = promisify(execFile);

/** The oldest bwrap the kind is tested on (Debian 12's), and the util-linux whose nsenter has --wdns. */
export const MIN_BWRAP = '0.8.0';
export const MIN_UTIL_LINUX = '2.38';

export interface PackedListing {
  file: string;
  names: string[];
  sizeBytes: number;
  unpacked: boolean;
  /** Why the file cannot be used ('' when it can). */
  problem: string;
}

export interface BwrapNodeFacts {
  /** bwrap's version, null when it is not installed. */
  bwrap: string | null;
  /** util-linux's version (unshare, nsenter), null when absent. */
  utilLinux: string | null;
  unsquashfs: boolean;
  /** A user namespace made by bwrap as this user: '' when it worked, else what was said. */
  userNamespaces: string;
  /** An overlay mounted in a user namespace of this user's: '' when it worked, else what was said. */
  overlay: string;
  /** The sysctls that allow or forbid the above (null where this kernel has none). */
  sysctl: { unprivilegedUsernsClone: string | null; maxUserNamespaces: string | null; apparmorRestrictsUserns: string | null };
  folder: { path: string; exists: boolean; readable: boolean; images: PackedListing[] };
  /**
   * Where images are unpacked, the bytes free there, the bytes the images not
   * yet unpacked need; how many are unpacked, and how many of those are of a
   * file since packed again or removed (they go before the next unpack).
   */
  room: { path: string; freeBytes: number | null; neededBytes: number; unpacked: number; stale: number };
  /** This process runs as root (the kind is meant for ordinary users). */
  root: boolean;
}

/** "bubblewrap 0.8.0" → "0.8.0"; "unshare from util-linux 2.38.1" → "2.38.1". */
export function versionIn(text: string): string | null {
  return /(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1] ?? null;
}

/** True when `version` is at least `min` (dotted numbers). */
export function atLeast(version: string, min: string): boolean {
  const a = version.split('.').map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

/** Why user namespaces fail, from the sysctls, with the fix (generic when no sysctl explains it). */
function usernsFix(sysctl: BwrapNodeFacts['sysctl']): string {
  if (sysctl.unprivilegedUsernsClone === '0') return 'sudo sysctl -w kernel.unprivileged_userns_clone=1 (and the same line in /etc/sysctl.d/99-userns.conf to keep it)';
  if (sysctl.maxUserNamespaces === '0') return 'sudo sysctl -w user.max_user_namespaces=15000 (and the same line in /etc/sysctl.d/99-userns.conf to keep it)';
  if (sysctl.apparmorRestrictsUserns === '1') return 'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile that lets bwrap make user namespaces (Ubuntu 24.04)';
  return 'ask the node\'s administrators to allow unprivileged user namespaces (a container or seccomp policy may forbid them here)';
}

/** What the node lacks for the kind, each with what to do; and notes on what works but is worth knowing. */
export function lacks(facts: BwrapNodeFacts): { missing: string[]; notes: string[] } {
  const missing: string[] = [];
  const notes: string[] = [];
  if (facts.bwrap === null) missing.push(`bwrap ${MIN_BWRAP} or later (sudo apt-get install bubblewrap)`);
  else if (!atLeast(facts.bwrap, MIN_BWRAP)) missing.push(`bwrap ${MIN_BWRAP} or later; this node has ${facts.bwrap} (sudo apt-get install bubblewrap from Debian 12 or later, or build it from github.com/containers/bubblewrap)`);
  if (facts.utilLinux === null || !atLeast(facts.utilLinux, MIN_UTIL_LINUX)) missing.push(`unshare and nsenter of util-linux ${MIN_UTIL_LINUX} or later${facts.utilLinux ? `; this node has ${facts.utilLinux}` : ''} (sudo apt-get install util-linux)`);
  if (!facts.unsquashfs) missing.push('unsquashfs, to unpack packed images (sudo apt-get install squashfs-tools)');
  if (facts.bwrap !== null && facts.userNamespaces) missing.push(`user namespaces an ordinary user may make (bwrap said: ${facts.userNamespaces}): ${usernsFix(facts.sysctl)}`);
  else if (facts.overlay) missing.push(`an overlay file system mounted inside a user namespace (Linux 5.11 or later; the mount said: ${facts.overlay})`);
  const { folder } = facts;
  if (!folder.exists) missing.push(`the folder ${folder.path} of packed images (mkdir -p ${folder.path}, then \`bugbench images pack IMAGE --out ${folder.path}/\` where an engine is)`);
  else if (!folder.readable) missing.push(`read access to ${folder.path} for this user (chmod a+rx ${folder.path})`);
  else if (folder.images.every((i) => i.problem)) missing.push(`packed images in ${folder.path} (\`bugbench images pack IMAGE --out ${folder.path}/\` where an engine is)`);
  for (const image of folder.images.filter((i) => i.problem)) notes.push(`${image.file} cannot be used: ${image.problem}`);
  const { room } = facts;
  if (room.freeBytes !== null && room.neededBytes > room.freeBytes) {
    missing.push(`room to unpack: the images not unpacked yet need ${gib(room.neededBytes)} under ${room.path}, which has ${gib(room.freeBytes)} free (free some, or set BUGBENCH_BWRAP_STATE to a folder with room)`);
  }
  if (facts.root) notes.push('running as root: the bwrap kind is meant for the ordinary users jobs run as (it works as root, but a sandbox is then root\'s processes)');
  notes.push('CPU, memory and pids limits are not enforced (a bwrap sandbox has no cgroup of its own)');
  return { missing, notes };
}

async function versionOf(tool: string, args: string[]): Promise<string | null> {
  try {
    const { stdout, stderr } = await run(tool, args);
    return versionIn(stdout || stderr);
  } catch (error) {
    // unsquashfs -version says its version and exits 1.
    const failure = error as { code?: unknown; stdout?: string; stderr?: string };
    return failure.code === 'ENOENT' ? null : versionIn(`${failure.stdout ?? ''}${failure.stderr ?? ''}`);
  }
}

/** '' when the command works, else what it said (its last lines). */
async function tried(tool: string, args: string[], cwd?: string): Promise<string> {
  try {
    await run(tool, args, { cwd, timeout: 20_000 });
    return '';
  } catch (error) {
    const failure = error as { stderr?: string };
    return (failure.stderr?.trim() || errorMessage(error)).split('\n').slice(-2).join(' ');
  }
}

async function sysctl(name: string): Promise<string | null> {
  try {
    return (await readFile(`/proc/sys/${name.replaceAll('.', '/')}`, 'utf8')).trim();
  } catch {
    return null;
  }
}

/** An overlay mounted as the kind mounts it, in a user namespace of this user's, in a scratch folder under `root`. */
async function overlayWorks(root: string): Promise<string> {
  await mkdir(root, { recursive: true });
  const scratch = await mkdtemp(join(root, 'doctor-'));
  try {
    await Promise.all(['lower', 'upper', 'work', 'merged'].map((d) => mkdir(join(scratch, d))));
    const mount = 'mount -t overlay overlay -o lowerdir=lower,upperdir=upper,workdir=work,userxattr merged';
    return await tried('unshare', ['--user', '--map-root-user', '--mount', '--', 'sh', '-c', mount], scratch);
  } finally {
    await removeTree(scratch);
  }
}

async function listPacked(folder: string, state: string): Promise<PackedListing[]> {
  const names = (await readdir(folder)).filter((name) => name.endsWith(PACKED_SUFFIX)).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = join(folder, name);
      try {
        const config = await readPackedConfig(file);
        return { file, names: config.names, sizeBytes: config.sizeBytes, unpacked: await isUnpacked(state, file), problem: '' };
      } catch (error) {
        return { file, names: [], sizeBytes: 0, unpacked: false, problem: errorMessage(error) };
      }
    }),
  );
}

async function unpackedCounts(state: string): Promise<{ unpacked: number; stale: number }> {
  const unpacked = await unpackedImages(state).catch(() => []);
  return { unpacked: unpacked.length, stale: unpacked.filter((image) => image.stale).length };
}

/** Looks at this node for the kind with images in `folder` and its state under `state`; never throws. */
export async function bwrapNodeFacts(folder: string, state: string): Promise<BwrapNodeFacts> {
  const [bwrap, utilLinux, unsquashfs] = await Promise.all([versionOf('bwrap', ['--version']), versionOf('unshare', ['--version']), versionOf('unsquashfs', ['-version'])]);
  const userNamespaces = bwrap === null ? 'bwrap is not installed' : await tried('bwrap', ['--unshare-user', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--', 'true']);
  const overlay = utilLinux === null ? 'unshare is not installed' : await overlayWorks(state).catch((error: unknown) => errorMessage(error));
  const exists = existsSync(folder);
  const readable = exists && (await access(folder, constants.R_OK | constants.X_OK).then(() => true, () => false));
  const images = readable ? await listPacked(folder, state).catch(() => []) : [];
  const neededBytes = images.filter((i) => !i.problem && !i.unpacked).reduce((sum, i) => sum + i.sizeBytes, 0);
  return {
    bwrap,
    utilLinux,
    unsquashfs: unsquashfs !== null,
    userNamespaces,
    overlay,
    sysctl: {
      unprivilegedUsernsClone: await sysctl('kernel.unprivileged_userns_clone'),
      maxUserNamespaces: await sysctl('user.max_user_namespaces'),
      apparmorRestrictsUserns: await sysctl('kernel.apparmor_restrict_unprivileged_userns'),
    },
    folder: { path: folder, exists, readable, images },
    room: { path: join(state, 'images'), freeBytes: await freeBytes(join(state, 'images')), neededBytes, ...(await unpackedCounts(state)) },
    root: process.getuid?.() === 0,
  };
}

/** The node looked at, and one sandbox of a packed image made, run and removed when nothing is missing. */
export async function diagnoseBwrapNode(engine: BwrapEngine): Promise<EngineDiagnosis & { bwrap: BwrapNodeFacts }> {
  const facts = await bwrapNodeFacts(engine.folder, engine.stateRoot);
  const { missing, notes } = lacks(facts);
  const probe = facts.folder.images.find((i) => !i.problem);
  let containers: EngineDiagnosis['containers'] = null;
  if (missing.length === 0 && probe) {
    const tried = await probeSandbox(engine, probe.names[0]!);
    containers = tried.ok ? tried : { ok: false, ms: tried.ms, detail: errorMessage(tried.error) };
  }

  return { containers, missing, notes, bwrap: facts };
}
