/**
 * Who a sandbox of a packed image runs as, read as Docker reads it: the
 * image's `User` (a name or uid, with an optional group or gid) looked up in
 * the image's own /etc/passwd and /etc/group, and that user's home for HOME.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxError } from '../../errors.js';

export interface ImageUser {
  uid: number;
  gid: number;
  /** The home /etc/passwd gives the uid ('/' when it names none, as Docker sets it). */
  home: string;
}

interface Entry {
  name: string;
  id: number;
  gid: number;
  home: string;
}

/** The lines of a passwd or group file as name, id and (passwd) group id and home. */
function entries(text: string): Entry[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split(':'))
    .filter((fields) => fields.length >= 3 && /^\d+$/.test(fields[2]!))
    .map((fields) => ({ name: fields[0]!, id: Number(fields[2]), gid: /^\d+$/.test(fields[3] ?? '') ? Number(fields[3]) : 0, home: fields[5] || '/' }));
}

function lookup(list: Entry[], spec: string, what: string, image: string): Entry | number {
  if (/^\d+$/.test(spec)) return list.find((e) => e.id === Number(spec)) ?? Number(spec);
  const found = list.find((e) => e.name === spec);
  if (!found) throw new SandboxError(`${image} runs as ${what} ${spec}, which its /etc/${what === 'user' ? 'passwd' : 'group'} does not name; pack the image again from one that has it`);
  return found;
}

/**
 * The ids and home of `user` ('' is root; 'name', 'uid', 'name:group',
 * 'uid:gid'). A uid the passwd file lacks runs with gid 0 and home /, as on
 * Docker; a name it lacks is a SandboxError.
 */
export function resolveImageUser(user: string, passwd: string, group: string, image = 'the image'): ImageUser {
  const [userSpec = '', groupSpec] = user.split(':', 2);
  const users = entries(passwd);
  const found = lookup(users, userSpec || '0', 'user', image);
  const uid = typeof found === 'number' ? found : found.id;
  let gid = typeof found === 'number' ? 0 : found.gid;
  if (groupSpec) {
    const g = lookup(entries(group), groupSpec, 'group', image);
    gid = typeof g === 'number' ? g : g.id;
  }
  return { uid, gid, home: homeOf(users, uid) };
}

function homeOf(users: Entry[], uid: number): string {
  return users.find((e) => e.id === uid)?.home ?? (uid === 0 ? '/root' : '/');
}

/** The home /etc/passwd gives `uid`. */
export function homeOfUid(uid: number, passwd: string): string {
  return homeOf(entries(passwd), uid);
}

/** One of the unpacked image's /etc files, '' when it is absent or not a regular file (a link could lead out of the image). */
export async function imageEtcFile(lower: string, name: 'passwd' | 'group'): Promise<string> {
  const path = join(lower, 'etc', name);
  try {
    if (!(await lstat(path)).isFile()) return '';
    return await readFile(path, 'utf8');
  } catch {
    return '';
  }
}
