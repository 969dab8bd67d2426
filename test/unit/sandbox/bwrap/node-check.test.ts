import { describe, expect, it } from 'vitest';
import { formatReport } from '../../../../src/commands/doctor.js';
import type { DoctorReport } from '../../../../src/pipeline/doctor.js';
import { reportHealthy } from '../../../../src/pipeline/doctor.js';
import { atLeast, lacks, versionIn, type BwrapNodeFacts } from '../../../../src/sandbox/bwrap/node-check.js';

/** A node with everything the kind needs. */
function goodNode(): BwrapNodeFacts {
  return {
    bwrap: '0.8.0',
    utilLinux: '2.38.1',
    unsquashfs: true,
    userNamespaces: '',
    overlay: '',
    sysctl: { unprivilegedUsernsClone: '1', maxUserNamespaces: '96365', apparmorRestrictsUserns: null },
    folder: { path: '/shared/images', exists: true, readable: true, images: [{ file: '/shared/images/a.sqsh', names: ['bugbench/repo-a:latest'], sizeBytes: 3 * 1024 ** 3, unpacked: false, problem: '' }] },
    room: { path: '/tmp/bugbench-bwrap-1000/images', freeBytes: 10 * 1024 ** 3, neededBytes: 3 * 1024 ** 3, unpacked: 2, stale: 1 },
    root: false,
  };
}

describe("doctor's look at a bwrap node", () => {
  it('reads versions and compares them as numbers', () => {
    expect(versionIn('bubblewrap 0.8.0')).toBe('0.8.0');
    expect(versionIn('unshare from util-linux 2.38.1')).toBe('2.38.1');
    expect(versionIn('no digits')).toBeNull();
    expect(atLeast('0.8.0', '0.8.0')).toBe(true);
    expect(atLeast('0.10.0', '0.8.0')).toBe(true);
    expect(atLeast('0.6.3', '0.8.0')).toBe(false);
    expect(atLeast('2.38.1', '2.38')).toBe(true);
    expect(atLeast('2.37.2', '2.38')).toBe(false);
  });

  it('finds nothing missing on a node that has it all', () => {
    expect(lacks(goodNode()).missing).toEqual([]);
  });

  it('names each lack with the command that gives it', () => {
    const old = { ...goodNode(), bwrap: '0.4.1', utilLinux: '2.36.1', unsquashfs: false };
    expect(lacks(old).missing).toEqual([
      expect.stringMatching(/^bwrap 0\.8\.0 or later; this node has 0\.4\.1 \(sudo apt-get install bubblewrap/),
      expect.stringMatching(/util-linux 2\.38 or later; this node has 2\.36\.1 \(sudo apt-get install util-linux\)/),
      'unsquashfs, to unpack packed images (sudo apt-get install squashfs-tools)',
    ]);
    expect(lacks({ ...goodNode(), bwrap: null }).missing).toEqual([expect.stringContaining('(sudo apt-get install bubblewrap)')]);
  });

  it('says which sysctl forbids user namespaces, and how to allow them', () => {
    const refused = { ...goodNode(), userNamespaces: 'bwrap: setting up uid map: Permission denied' };
    const debian = lacks({ ...refused, sysctl: { unprivilegedUsernsClone: '0', maxUserNamespaces: '96365', apparmorRestrictsUserns: null } }).missing;
    expect(debian).toEqual([expect.stringMatching(/bwrap said: bwrap: setting up uid map: Permission denied\): sudo sysctl -w kernel\.unprivileged_userns_clone=1/)]);
    expect(lacks({ ...refused, sysctl: { unprivilegedUsernsClone: null, maxUserNamespaces: '0', apparmorRestrictsUserns: null } }).missing[0]).toMatch(/sudo sysctl -w user\.max_user_namespaces=15000/);
    expect(lacks({ ...refused, sysctl: { unprivilegedUsernsClone: null, maxUserNamespaces: '100', apparmorRestrictsUserns: '1' } }).missing[0]).toMatch(/kernel\.apparmor_restrict_unprivileged_userns=0/);
    expect(lacks({ ...goodNode(), overlay: 'mount: permission denied' }).missing).toEqual([expect.stringMatching(/overlay file system mounted inside a user namespace \(Linux 5\.11/)]);
  });

  it('needs the folder, packed images in it, and room to unpack them', () => {
    const node = goodNode();
    expect(lacks({ ...node, folder: { ...node.folder, exists: false, readable: false, images: [] } }).missing).toEqual([expect.stringMatching(/^the folder \/shared\/images of packed images \(mkdir -p \/shared\/images, then `bugbench images pack IMAGE --out \/shared\/images\/`/)]);
    expect(lacks({ ...node, folder: { ...node.folder, readable: false, images: [] } }).missing).toEqual(['read access to /shared/images for this user (chmod a+rx /shared/images)']);
    const broken = lacks({ ...node, folder: { ...node.folder, images: [{ ...node.folder.images[0]!, problem: 'not a squashfs' }] } });
    expect(broken.missing).toEqual([expect.stringMatching(/^packed images in \/shared\/images/)]);
    expect(broken.notes).toContain('/shared/images/a.sqsh cannot be used: not a squashfs');
    expect(lacks({ ...node, room: { ...node.room, freeBytes: 1024 ** 3 } }).missing).toEqual([expect.stringMatching(/^room to unpack: the images not unpacked yet need 3\.0 GiB under \/tmp\/bugbench-bwrap-1000\/images, which has 1\.0 GiB free \(.*BUGBENCH_BWRAP_STATE/)]);
  });

  it('prints the node, and a bwrap node is healthy by its needs alone (no base or sample images looked for)', () => {
    const node = { ...goodNode(), userNamespaces: 'Operation not permitted', sysctl: { ...goodNode().sysctl, unprivilegedUsernsClone: '0' } };
    const engine = { name: 'e1', host: 'bwrap:///shared/images', ok: true, version: '0.8.0', product: 'bwrap' as const, rootless: true, runtime: 'bwrap', kind: 'bwrap 0.8.0 (no engine)', cpus: 2, slots: 2, images: [], containers: null, ...lacks(node), bwrap: node };
    const report: DoctorReport = {
      engine: { ok: true, version: '0.8.0', host: engine.host, kind: engine.kind },
      engines: [engine],
      packedOnly: true,
      baseImage: { ok: false, tag: 'bugbench/base:bookworm' },
      sampleImages: [{ tag: 'bugbench/repo-knotcfg:latest', ok: false }],
      anthropicKey: false,
      cluster: { ok: false, detail: 'not configured' },
    };
    const text = formatReport(report);
    expect(text).toContain('MISSING engine e1: bwrap 0.8.0, user namespaces refused, overlay in them works, unsquashfs present, util-linux 2.38.1');
    expect(text).toContain('ok      engine e1: unpacking needs 3.0 GiB more under /tmp/bugbench-bwrap-1000/images (10.0 GiB free); 2 image version(s) unpacked, 1 of a file packed again or removed since (removed before the next unpack, once unused for 10 min); unused ones go, least recently used first, when an unpack lacks room');
    expect(text).toMatch(/^MISSING engine e1 needs user namespaces .*sudo sysctl -w kernel\.unprivileged_userns_clone=1/m);
    expect(text).not.toContain('base image');
    expect(text).toContain('`bugbench doctor --fix` starts and builds nothing on a bwrap node');
    expect(reportHealthy(report)).toBe(false);
    const good = { ...report, engines: [{ ...engine, ...lacks(goodNode()), bwrap: goodNode(), containers: { ok: true, ms: 40 } }] };
    expect(reportHealthy(good)).toBe(true);
    expect(formatReport(good)).toContain('ok      engine e1 ran a sandbox of bugbench/repo-a:latest in 40 ms');
  });
});
