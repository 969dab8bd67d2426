import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { homeOfUid, imageEtcFile, resolveImageUser } from '../../../../src/sandbox/bwrap/image-user.js';

const PASSWD = ['root:x:0:0:root:/root:/bin/bash', '# a comment', 'app:x:1000:1001::/home/app:/bin/bash', 'nohome:x:1002:1002::', ''].join('\n');
const GROUP = ['root:x:0:', 'app:x:1001:', 'dev:x:2000:app'].join('\n');

describe('the user a packed image runs as', () => {
  it('reads User as Docker does: name or uid, with a group or gid, home from passwd', () => {
    expect(resolveImageUser('', PASSWD, GROUP)).toEqual({ uid: 0, gid: 0, home: '/root' });
    expect(resolveImageUser('app', PASSWD, GROUP)).toEqual({ uid: 1000, gid: 1001, home: '/home/app' });
    expect(resolveImageUser('1000', PASSWD, GROUP)).toEqual({ uid: 1000, gid: 1001, home: '/home/app' });
    expect(resolveImageUser('app:dev', PASSWD, GROUP)).toEqual({ uid: 1000, gid: 2000, home: '/home/app' });
    expect(resolveImageUser('1000:3000', PASSWD, GROUP)).toEqual({ uid: 1000, gid: 3000, home: '/home/app' });
    // A uid the image does not name: gid 0 and home /, as on Docker.
    expect(resolveImageUser('4242', PASSWD, GROUP)).toEqual({ uid: 4242, gid: 0, home: '/' });
    expect(resolveImageUser('nohome', PASSWD, GROUP).home).toBe('/');
    expect(homeOfUid(0, '')).toBe('/root');
    expect(homeOfUid(1000, PASSWD)).toBe('/home/app');
  });

  it('refuses a user or group name the image does not have, saying so', () => {
    expect(() => resolveImageUser('ghost', PASSWD, GROUP, 'x/y:1')).toThrow(/x\/y:1 runs as user ghost, which its \/etc\/passwd does not name/);
    expect(() => resolveImageUser('app:ghosts', PASSWD, GROUP, 'x/y:1')).toThrow(/group ghosts, which its \/etc\/group/);
  });

  describe('reading the unpacked image', () => {
    const lower = mkdtempSync(join(tmpdir(), 'bb-image-user-'));
    afterAll(() => rmSync(lower, { recursive: true, force: true }));

    it('reads /etc/passwd, but not through a link (which could lead out of the image to the host)', async () => {
      mkdirSync(join(lower, 'etc'));
      writeFileSync(join(lower, 'etc/passwd'), PASSWD);
      symlinkSync('/etc/group', join(lower, 'etc/group'));
      expect(await imageEtcFile(lower, 'passwd')).toBe(PASSWD);
      expect(await imageEtcFile(lower, 'group')).toBe('');
    });
  });
});
