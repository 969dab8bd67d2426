/**
 * The pure parts of telling engines apart: the kind from /version and /info
 * (answers recorded from Docker 20.10 and Podman 4.3 on Debian 12), the
 * container options each kind gets, image names, and which errors are the
 * engine's.
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/errors.js';
import { containerSpec, hardLimit, hostLimits, HOSTS_FILE, type ContainerRequest } from '../../../src/sandbox/docker-api/container-options.js';
import { asEngineError, engineText, isEngineFailure, unreachableEngine } from '../../../src/sandbox/engine-errors.js';
import { hintsFor } from '../../../src/sandbox/docker-api/engine-diagnosis.js';
import { describeKind, kindFromAnswers } from '../../../src/sandbox/engine-kind.js';
import { canonicalImageName, sameImageName, splitImageName } from '../../../src/sandbox/image-names.js';
import { podmanUserSocket } from '../../../src/sandbox/node-engine.js';
import { hasSubordinateRange } from '../../../src/sandbox/subids.js';

const DOCKER_VERSION = { Version: '20.10.24+dfsg1', Components: [{ Name: 'Engine', Version: '20.10.24+dfsg1' }, { Name: 'containerd' }, { Name: 'runc' }] };
const DOCKER_INFO = { ServerVersion: '20.10.24+dfsg1', NCPU: 2, SecurityOptions: ['name=seccomp,profile=default'], DefaultRuntime: 'runc', CgroupVersion: '1', Driver: 'overlay2' };
const PODMAN_VERSION = { Version: '4.3.1', Components: [{ Name: 'Podman Engine', Version: '4.3.1' }, { Name: 'Conmon' }, { Name: 'OCI Runtime (runc)' }] };
const PODMAN_INFO = { ServerVersion: '4.3.1', NCPU: 2, Rootless: true, SecurityOptions: ['name=seccomp,profile=default'], DefaultRuntime: 'runc', CgroupVersion: '1', Driver: 'overlay' };

describe('engine kinds', () => {
  it('tells Docker from Podman, rootful from rootless', () => {
    const docker = kindFromAnswers(DOCKER_VERSION, DOCKER_INFO);
    expect(docker).toMatchObject({ product: 'docker', rootless: false, runtime: 'runc', cpus: 2, limitsEnforced: true });
    expect(describeKind(docker)).toBe('Docker 20.10.24+dfsg1 (runc)');
    const rootless = kindFromAnswers(PODMAN_VERSION, PODMAN_INFO);
    expect(rootless).toMatchObject({ product: 'podman', rootless: true, limitsEnforced: false });
    expect(describeKind(rootless)).toBe('rootless Podman 4.3.1 (runc)');
    expect(kindFromAnswers(PODMAN_VERSION, { ...PODMAN_INFO, Rootless: false })).toMatchObject({ product: 'podman', rootless: false, limitsEnforced: true });
    // Rootless Docker says so among its security options.
    expect(kindFromAnswers(DOCKER_VERSION, { ...DOCKER_INFO, CgroupVersion: '2', SecurityOptions: ['name=seccomp,profile=default', 'name=rootless'] })).toMatchObject({ rootless: true, limitsEnforced: true });
  });
});

describe('container options', () => {
  const request: ContainerRequest = { image: 'bugbench/repo-x:latest', command: ['sleep', 'infinity'], workdir: '/repo', env: { A: '1' }, labels: { 'bugbench.run': 'r1' }, memoryBytes: 1024, pidsLimit: 64 };
  const limits = { nofile: 20000, nproc: 32768 };

  it('asks both engines for an init, no network, memory and pids limits and labels; only Podman gets ulimits', () => {
    const docker = containerSpec(kindFromAnswers(DOCKER_VERSION, DOCKER_INFO), request, limits);
    const podman = containerSpec(kindFromAnswers(PODMAN_VERSION, PODMAN_INFO), request, limits);
    for (const spec of [docker, podman]) {
      expect(spec).toMatchObject({ Image: 'bugbench/repo-x:latest', HostConfig: { NetworkMode: 'none' }, Labels: { 'bugbench.run': 'r1' }, Env: ['A=1'] });
      expect(spec.HostConfig).toMatchObject({ NetworkMode: 'none', Init: true, Memory: 1024, MemorySwap: 1024, PidsLimit: 64 });
    }
    // Docker's none network is built by its network manager: runc makes the loopback-only namespace faster, and the sandbox writes the hosts file.
    expect(docker.NetworkDisabled).toBe(true);
    expect(docker.HostConfig?.Sysctls).toEqual({ 'net.ipv6.conf.all.disable_ipv6': '1' });
    expect(podman.NetworkDisabled).toBeUndefined();
    expect(podman.HostConfig?.Sysctls).toBeUndefined();
    expect(HOSTS_FILE).toMatch(/^127\.0\.0\.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n/);
    expect(docker.HostConfig?.Ulimits).toBeUndefined();
    expect(podman.HostConfig?.Ulimits).toEqual([
      { Name: 'nofile', Soft: 20000, Hard: 20000 },
      { Name: 'nproc', Soft: 32768, Hard: 32768 },
    ]);
  });

  it('reads the hard limits from /proc, capped by the kernel', () => {
    const limitsText = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             96365                96365                processes ',
      'Max open files            1024                 20000                files     ',
    ].join('\n');
    expect(hardLimit(limitsText, 'Max open files')).toBe(20000);
    const files: Record<string, string> = { '/proc/self/limits': limitsText, '/proc/sys/fs/nr_open': '1048576\n', '/proc/sys/kernel/pid_max': '32768\n' };
    expect(hostLimits((p) => files[p] ?? '')).toEqual({ nofile: 20000, nproc: 32768 });
    expect(hostLimits(() => {
      throw new Error('no /proc');
    })).toEqual({ nofile: 1_048_576, nproc: 1_048_576 });
  });
});

describe('image names', () => {
  it('compares names as bugbench writes them, whatever Podman lists', () => {
    expect(canonicalImageName('localhost/bugbench/repo-x:latest')).toBe('bugbench/repo-x:latest');
    expect(canonicalImageName('docker.io/bugbench/base:bookworm')).toBe('bugbench/base:bookworm');
    expect(canonicalImageName('docker.io/library/python:3.11')).toBe('python:3.11');
    expect(canonicalImageName('bugbench/repo-x')).toBe('bugbench/repo-x:latest');
    expect(canonicalImageName('registry.example.com:5000/team/x')).toBe('registry.example.com:5000/team/x:latest');
    expect(sameImageName('localhost/bugbench/repo-x', 'bugbench/repo-x:latest')).toBe(true);
    expect(splitImageName('localhost/bugbench/repo-x:v2')).toEqual(['bugbench/repo-x', 'v2']);
  });
});

describe('whose fault an error is', () => {
  const dockerode = (statusCode: number, message: string) => Object.assign(new Error(`(HTTP code ${statusCode}) server error - ${message}`), { statusCode, json: { message } });

  it('blames the engine for server errors and lost connections, not for a missing image or a conflict', () => {
    expect(isEngineFailure(dockerode(500, 'crun: setrlimit RLIMIT_NOFILE: Operation not permitted'))).toBe(true);
    expect(isEngineFailure(Object.assign(new Error('connect ECONNREFUSED /run/x.sock'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isEngineFailure(new EngineError('exec', 'gone'))).toBe(true);
    expect(isEngineFailure(dockerode(404, 'no such image'))).toBe(false);
    expect(isEngineFailure(dockerode(409, 'container is not running'))).toBe(false);
    expect(isEngineFailure(new Error('the parser exited with 1'))).toBe(false);
  });

  it('tells an engine that is not there (nothing at the socket or port) from one that failed a request', () => {
    const connect = (code: string, address: string, port?: number) =>
      Object.assign(new Error(`connect ${code} ${address}${port ? `:${port}` : ''}`), { code, syscall: 'connect', address, ...(port ? { port } : {}) });
    expect(unreachableEngine(connect('ENOENT', '/run/docker.sock'))?.message).toBe(
      'no container engine answers at unix:///run/docker.sock (connect ENOENT /run/docker.sock); run `bugbench doctor --fix` to install and start one',
    );
    expect(unreachableEngine(connect('ECONNREFUSED', '10.0.0.5', 2375))).toMatchObject({ code: 'BB_ENGINE_UNREACHABLE', exitCode: 75, message: expect.stringContaining('at tcp://10.0.0.5:2375 (') });
    // Named as configured when the caller knows it; a socket the user may not open is a matter of permissions.
    expect(unreachableEngine(connect('ENOENT', '/run/docker.sock'), 'unix:///run/docker.sock')?.message).toMatch(/^no container engine answers at unix:\/\/\/run\/docker\.sock \(/);
    expect(unreachableEngine(connect('EACCES', '/var/run/docker.sock'))?.message).toMatch(/\(connect EACCES \/var\/run\/docker\.sock\); this user may not use its socket: add the user to the `docker` group/);
    // A connection cut mid-request, a server error and bugbench's own errors are something else.
    expect(unreachableEngine(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }))).toBeUndefined();
    expect(unreachableEngine(dockerode(500, 'boom'))).toBeUndefined();
    expect(unreachableEngine(new EngineError('exec', 'gone'))).toBeUndefined();
    expect(unreachableEngine('ENOENT')).toBeUndefined();
  });

  it('keeps the engine\'s own words', () => {
    const error = asEngineError(dockerode(500, 'container-init binary not found on the host'), 'create');
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).detail).toBe('container-init binary not found on the host');
    expect((error as EngineError).message).toBe('the engine could not create a container: container-init binary not found on the host');
    expect((error as EngineError).exitCode).toBe(75);
    expect(engineText(new Error('(HTTP code 500) server error - boom'))).toBe('boom');
    const notEngine = dockerode(404, 'nope');
    expect(asEngineError(notEngine, 'create')).toBe(notEngine);
  });
});

describe('what a refusing engine lacks', () => {
  it('reads the known causes from the engine\'s refusal', () => {
    expect(hintsFor('container-init binary not found on the host')[0]).toMatch(/catatonit/);
    expect(hintsFor('runc create failed: error setting rlimit type 7: operation not permitted')[0]).toMatch(/hard limits/);
    expect(hintsFor('crun: cgroups in hybrid mode not supported, drop all controllers from cgroupv2')[0]).toMatch(/runc/);
    expect(hintsFor('cannot find mappings for user ann: No subuid ranges found', 'ann')[0]).toMatch(/usermod --add-subuids .* ann/);
    expect(hintsFor('no space left on device')).toEqual([]);
  });

  it('finds subordinate id ranges by name or uid', () => {
    const subuid = 'ann:100000:65536\n1002:165536:65536\nbob:231072:0\n';
    expect(hasSubordinateRange(subuid, 'ann', 1001)).toBe(true);
    expect(hasSubordinateRange(subuid, 'carl', 1002)).toBe(true);
    expect(hasSubordinateRange(subuid, 'bob', 1003)).toBe(false);
  });
});

describe('rootless Podman\'s socket', () => {
  it('is where Podman puts it by default', () => {
    expect(podmanUserSocket(1001, { XDG_RUNTIME_DIR: '/run/user/1001' })).toBe('/run/user/1001/podman/podman.sock');
    expect(podmanUserSocket(1001, {}, (p) => p === '/run/user/1001')).toBe('/run/user/1001/podman/podman.sock');
    expect(podmanUserSocket(1001, {}, () => false)).toBe('/tmp/podman-run-1001/podman/podman.sock');
    expect(podmanUserSocket(0, {})).toBe('/run/podman/podman.sock');
  });
});

