/**
 * The container bugbench asks an engine for, in terms both Docker and Podman
 * accept: an init process, no network, memory and pids limits, labels. The
 * one difference is ulimits. Docker's containers inherit its daemon's limits;
 * Podman (4.x, run by root) asks for 1048576 open files and processes, which
 * the kernel refuses when the service's own hard limits are lower (runc:
 * "error setting rlimit … operation not permitted"). So a Podman container
 * asks for this host's hard limits instead, which the service (started from
 * the same environment) holds.
 *
 * Commands differ in one way too: Docker ends an exec's output stream once
 * every process holding its pipe is gone, so children a command left in the
 * background keep it open and the sandbox kills them; Podman ends the stream
 * when the command's own process exits and the children live on. On Podman a
 * command runs under a small bash that, once it is done, kills what still
 * holds its output, the same children Docker's stream would have waited for.
 */
import { readFileSync } from 'node:fs';
import type Docker from 'dockerode';
import type { EngineKind } from '../engine-kind.js';

export interface ContainerRequest {
  image: string;
  command: string[];
  workdir: string;
  /** The user the container runs as; '' keeps the image's own. */
  user?: string;
  env: Record<string, string>;
  labels: Record<string, string>;
  memoryBytes: number;
  pidsLimit: number;
  /** CPUs the container may use; undefined: no limit beyond the host's. */
  cpus?: number;
  /** Named volumes: volume name → path in the container. */
  volumes?: Record<string, string>;
}

/** Hard limits of this host that a container may ask for. */
export interface HostLimits {
  nofile: number;
  nproc: number;
}

/** Podman's own default when nothing lower is known. */
const PODMAN_DEFAULT_LIMIT = 1_048_576;

/** The hard limit named `name` in a /proc/<pid>/limits text ("unlimited" counts as none). */
export function hardLimit(limitsText: string, name: string): number | undefined {
  const line = limitsText.split('\n').find((l) => l.startsWith(name));
  const hard = line?.slice(name.length).trim().split(/\s+/)[1];
  const n = Number(hard);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function readNumber(path: string, read: (path: string) => string): number | undefined {
  try {
    const n = Number(read(path).trim());
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/**
 * This process's hard limits on open files and processes, capped by what the
 * kernel allows at all (fs.nr_open, kernel.pid_max). Read from /proc; where
 * there is none, Podman's default.
 */
export function hostLimits(read: (path: string) => string = (p) => readFileSync(p, 'utf8')): HostLimits {
  let limits = '';
  try {
    limits = read('/proc/self/limits');
  } catch {
    // not Linux: keep the defaults
  }
  const min = (...values: (number | undefined)[]) => Math.min(PODMAN_DEFAULT_LIMIT, ...values.filter((v): v is number => v !== undefined));
  return {
    nofile: min(hardLimit(limits, 'Max open files'), readNumber('/proc/sys/fs/nr_open', read)),
    nproc: min(hardLimit(limits, 'Max processes'), readNumber('/proc/sys/kernel/pid_max', read)),
  };
}

let cachedLimits: HostLimits | undefined;

/** Whether a container of this engine gets its loopback-only network from runc alone (see containerSpec). */
export function disablesNetwork(kind: EngineKind): boolean {
  return kind.product === 'docker';
}

/**
 * The hosts file of a container whose network is disabled: what Docker writes for network mode none. It names
 * no container, since a snapshot of the container (an adopted image's run image) keeps it.
 */
export const HOSTS_FILE = '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nff00::0\tip6-mcastprefix\nff02::1\tip6-allnodes\nff02::2\tip6-allrouters\n';

/** The create options for `request` on an engine of `kind`. */
export function containerSpec(kind: EngineKind, request: ContainerRequest, limits: HostLimits = (cachedLimits ??= hostLimits())): Docker.ContainerCreateOptions {
  const ulimits =
    kind.product === 'podman'
      ? [
          { Name: 'nofile', Soft: limits.nofile, Hard: limits.nofile },
          { Name: 'nproc', Soft: limits.nproc, Hard: limits.nproc },
        ]
      : undefined;
  return {
    Image: request.image,
    // The image's ENTRYPOINT (`/bin/bash`, a script that ends) would stand in front of the command, and a container
    // whose entrypoint exits is gone before its first exec: bugbench runs its own command, as `docker exec` does.
    // One empty string resets it on Docker and Podman alike (Podman's compat API ignores an empty list).
    Entrypoint: [''],
    Cmd: request.command,
    WorkingDir: request.workdir,
    ...(request.user ? { User: request.user } : {}),
    Env: Object.entries(request.env).map(([k, v]) => `${k}=${v}`),
    Labels: request.labels,
    // A loopback interface and nothing else. Docker builds network mode none's namespace through its
    // network manager, with its hosts and resolver files: about half of a container's start (70 of
    // 150 ms here). With the network disabled, runc makes the namespace itself, `lo` up and nothing
    // else, and the hosts file is left empty: "localhost" would not resolve (test runners that serve
    // themselves on localhost, vitest among them, would fail), so the sandbox writes the lines network
    // mode none would have (HOSTS_FILE) before it starts. Podman's none is its own and stays as it is.
    ...(disablesNetwork(kind) ? { NetworkDisabled: true } : {}),
    HostConfig: {
      NetworkMode: 'none',
      Memory: request.memoryBytes,
      MemorySwap: request.memoryBytes,
      PidsLimit: request.pidsLimit,
      NanoCpus: request.cpus ? Math.round(request.cpus * 1e9) : undefined,
      Init: true,
      // Network mode none leaves IPv6 off on `lo`; runc's namespace has ::1, and "localhost" would then be ::1 first
      // (node 18's servers and clients on localhost would miss each other's 127.0.0.1): off, as before.
      ...(disablesNetwork(kind) ? { Sysctls: { 'net.ipv6.conf.all.disable_ipv6': '1' } } : {}),
      ...(ulimits ? { Ulimits: ulimits } : {}),
      Mounts: Object.entries(request.volumes ?? {}).map(([Source, Target]) => ({ Type: 'volume' as const, Source, Target })),
    },
  };
}

/** After the command, kill every other process that still holds this shell's stdout or stderr (left in the background). */
const REAP_HOLDERS = [
  'o=$(readlink /proc/$$/fd/1); e=$(readlink /proc/$$/fd/2)',
  'for p in /proc/[0-9]*; do q=${p#/proc/}; [ "$q" = $$ ] && continue',
  'for f in 1 2; do l=$(readlink $p/fd/$f 2>/dev/null) || continue; if [ "$l" = "$o" ] || [ "$l" = "$e" ]; then kill -KILL $q 2>/dev/null; break; fi; done; done',
].join('; ');

/** The argv that runs `command` with bash in a container of `kind`. */
export function execCommand(kind: EngineKind, command: string): string[] {
  if (kind.product !== 'podman') return ['bash', '-c', command];
  return ['bash', '-c', `bash -c "$1"; rc=$?; ${REAP_HOLDERS}; exit $rc`, 'bugbench-exec', command];
}
