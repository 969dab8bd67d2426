/**
 * What an engine lacks to run bugbench's containers, for `doctor`: one real
 * container made with bugbench's own options (when the engine holds the
 * image to make it from), the engine's refusal read for the known causes,
 * and, for an engine on this machine, the pieces Podman needs that can be
 * looked at directly (catatonit, subuid ranges, a runtime that works here).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { EngineError, errorMessage } from '../../errors.js';
import { engineText } from '../engine-errors.js';
import type { RunEngine } from '../engines.js';
import { probeSandbox } from '../probe.js';
import { hasSubordinateRange } from '../subids.js';
import { hostLimits } from './container-options.js';

export interface EngineDiagnosis {
  /** A container was created, started, ran a command and was removed; null when not tried (the engine lacks the image). */
  containers: { ok: boolean; ms: number; detail?: string } | null;
  /** What is missing, each with what to do. */
  missing: string[];
  /** What works but differs from a rootful Docker engine. */
  notes: string[];
}

const CATATONIT_PATHS = ['/usr/libexec/podman/catatonit', '/usr/bin/catatonit', '/usr/libexec/catatonit/catatonit', '/usr/local/bin/catatonit'];

export const HINTS = {
  catatonit: 'catatonit, the init process Podman puts in containers (apt-get install catatonit)',
  subuid: (user: string) => `subordinate uid/gid ranges for ${user} in /etc/subuid and /etc/subgid (usermod --add-subuids 100000-165535 --add-subgids 100000-165535 ${user}), and newuidmap (apt-get install uidmap)`,
  runc: 'runc as the OCI runtime: crun refuses this machine\'s hybrid cgroups (apt-get install runc; [engine] runtime = "runc" in containers.conf; scripts/podman-up does this)',
  rlimits: () => {
    const limits = hostLimits();
    return `a service started with this machine's hard limits: containers ask for nofile ${limits.nofile} and nproc ${limits.nproc}, and the engine's own limits are lower (start the service from a shell with \`ulimit -Hn\` at least that, e.g. scripts/podman-up)`;
  },
} as const;

/** The hints a refusal's text points to (empty when none is known). */
export function hintsFor(refusal: string, user = 'the user running the engine'): string[] {
  const hints: string[] = [];
  if (/container-init|catatonit|init binary/i.test(refusal)) hints.push(HINTS.catatonit);
  if (/rlimit|RLIMIT_/i.test(refusal)) hints.push(HINTS.rlimits());
  if (/hybrid mode|cgroups in hybrid/i.test(refusal)) hints.push(HINTS.runc);
  if (/newuidmap|newgidmap|subuid|subgid|not enough IDs|cannot find mappings|setup user namespace/i.test(refusal)) hints.push(HINTS.subuid(user));
  return hints;
}

function localSocket(host: string): string | undefined {
  const path = host.startsWith('unix://') ? host.slice('unix://'.length) : host.startsWith('/') ? host : undefined;
  return path && existsSync(path) ? path : undefined;
}

function userOf(uid: number): string | undefined {
  try {
    return readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find((f) => Number(f[2]) === uid)?.[0];
  } catch {
    return undefined;
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** What can be seen of a Podman engine on this machine without asking it for a container. */
function localPodmanChecks(engine: RunEngine, socket: string): { missing: string[]; notes: string[] } {
  const missing: string[] = [];
  const notes: string[] = [];
  if (!CATATONIT_PATHS.some((p) => existsSync(p))) missing.push(HINTS.catatonit);
  if (engine.kind.rootless) {
    const uid = statSync(socket).uid;
    const user = userOf(uid) ?? String(uid);
    const ranges = hasSubordinateRange(readOr('/etc/subuid'), user, uid) && hasSubordinateRange(readOr('/etc/subgid'), user, uid);
    if (!ranges || !existsSync('/usr/bin/newuidmap')) missing.push(HINTS.subuid(user));
  }
  const hybrid = engine.kind.cgroupVersion === '1' && existsSync('/sys/fs/cgroup/unified');
  if (engine.kind.runtime === 'crun' && hybrid) missing.push(HINTS.runc);
  return { missing, notes };
}

/** Looks at one engine that answered; never throws. */
export async function diagnoseEngine(engine: RunEngine, image: string): Promise<EngineDiagnosis> {
  const missing: string[] = [];
  const notes: string[] = [];
  const { kind } = engine;
  if (!kind.limitsEnforced) notes.push('memory and pids limits are accepted but not enforced (a rootless engine on cgroup v1)');
  if (kind.storageDriver === 'vfs') notes.push('its storage driver is vfs, which copies the whole image for every container: set driver = "overlay" in storage.conf (scripts/podman-up does this)');
  const socket = localSocket(engine.host);
  if (kind.product === 'podman' && socket) {
    const local = localPodmanChecks(engine, socket);
    missing.push(...local.missing);
    notes.push(...local.notes);
  }
  let containers: EngineDiagnosis['containers'] = null;
  if (await engine.port.inspectImage(image).catch(() => undefined)) {
    const probe = await probeSandbox(engine.port, image);
    if (probe.ok) containers = probe;
    else {
      const text = probe.error instanceof EngineError ? probe.error.detail : engineText(probe.error) || errorMessage(probe.error);
      containers = { ok: false, ms: probe.ms, detail: text };
      for (const hint of hintsFor(text)) if (!missing.includes(hint)) missing.push(hint);
    }
  }

  return { containers, missing, notes };
}
