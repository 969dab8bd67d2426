/**
 * Which engine answers at an address: Docker or Podman (through its
 * Docker-compatible API), run by root or rootless, with which OCI runtime.
 * The kind decides how containers are asked for (container-options.ts) and
 * what `doctor` says; nothing above sandbox/ asks for it.
 */

export type EngineProduct = 'docker' | 'podman' | 'bwrap';

export interface EngineKind {
  product: EngineProduct;
  rootless: boolean;
  version: string;
  /** The default OCI runtime (runc, crun, …); '' when the engine does not say. */
  runtime: string;
  /** '1' or '2'; '' when the engine does not say. */
  cgroupVersion: string;
  storageDriver: string;
  cpus: number;
  /** Memory and pids limits are applied (a rootless engine on cgroup v1 accepts and ignores them). */
  limitsEnforced: boolean;
}

export interface VersionAnswer {
  Version?: string;
  Components?: { Name?: string; Version?: string }[];
}

export interface InfoAnswer {
  ServerVersion?: string;
  NCPU?: number;
  Rootless?: boolean;
  SecurityOptions?: string[];
  DefaultRuntime?: string;
  CgroupVersion?: string;
  Driver?: string;
}

/** The kind from the engine's answers to GET /version and GET /info. */
export function kindFromAnswers(version: VersionAnswer, info: InfoAnswer): EngineKind {
  const podman = (version.Components ?? []).some((c) => /podman/i.test(c.Name ?? ''));
  // Podman says Rootless; rootless Docker lists "name=rootless" among its security options.
  const rootless = info.Rootless === true || (info.SecurityOptions ?? []).some((o) => /(^|,)name=rootless(,|$)/.test(o));
  const cgroupVersion = info.CgroupVersion ?? '';
  return {
    product: podman ? 'podman' : 'docker',
    rootless,
    version: info.ServerVersion ?? version.Version ?? '?',
    runtime: info.DefaultRuntime ?? '',
    cgroupVersion,
    storageDriver: info.Driver ?? '',
    cpus: info.NCPU && info.NCPU > 0 ? info.NCPU : 1,
    limitsEnforced: !(rootless && cgroupVersion === '1'),
  };
}

/** "rootless Podman 4.3.1 (runc)", "Docker 20.10.24 (runc)". */
export function describeKind(kind: EngineKind): string {
  if (kind.product === 'bwrap') return `bwrap ${kind.version} (no engine)`;
  const name = kind.product === 'podman' ? 'Podman' : 'Docker';
  return `${kind.rootless ? 'rootless ' : ''}${name} ${kind.version}${kind.runtime ? ` (${kind.runtime})` : ''}`;
}
