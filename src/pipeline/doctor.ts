/**
 * `bugbench doctor`: what this machine has of what bugbench needs, and with
 * `fix`, making what can be made (engine, base image, the toolchain bases the
 * samples need, sample images).
 */
import { availablePolicies, type PolicyName } from '../agent/policies.js';
import { errorMessage } from '../errors.js';
import type { Progress } from '../progress.js';
import { BASE_IMAGE, ensureBaseImage } from '../sandbox/base-image.js';
import { dockerClient, engineHosts, engineInfo, imageExists } from '../sandbox/docker.js';
import { ensureEngine } from '../sandbox/engine.js';
import { engineStatuses, type EngineStatus } from '../sandbox/engines.js';
import { reapOrphansEverywhere } from '../sandbox/orphans.js';
import { LANGUAGES, type BaseRecipe, type Language } from '../sandbox/languages.js';
import { ensureSampleImages, listSamples, sampleImageStatus, type Sample } from '../sandbox/samples.js';
import { ensureLanguageBase, toolchainBaseStatus, type BaseState } from '../sandbox/toolchain-base.js';
import { clusterHealth, type ClusterHealth } from '../training/queue.js';

export interface DoctorReport {
  /** The default engine (the first configured): images are built there. */
  engine: { ok: boolean; version: string; host: string; detail?: string };
  /** Every configured engine: version, slots and the repo images it holds. */
  engines: EngineStatus[];
  baseImage: { ok: boolean; tag: string };
  sampleImages: { tag: string; ok: boolean }[];
  /**
   * One per toolchain base (Go, Node, Rust, Java): `ok` when built from this
   * version's recipe. `neededBy` names the samples built on it; `--fix` builds
   * only those, `images build` the others when a repository needs them.
   * Always filled in by diagnose (optional for reports made by hand).
   */
  toolchainBases?: { language: string; tag: string; ok: boolean; state: BaseState | 'unknown'; holds: string; neededBy: string[] }[];
  anthropicKey: boolean;
  /** The policies this machine is set up for, the default first (offline always). */
  policies?: PolicyName[];
  /** The configured training engine (slurm, ray or local) and whether it answers; not needed for a healthy report. */
  cluster: ClusterHealth;
}

export function reportHealthy(report: DoctorReport): boolean {
  const bases = (report.toolchainBases ?? []).every((b) => b.ok || b.neededBy.length === 0);
  return report.engine.ok && report.baseImage.ok && report.sampleImages.every((s) => s.ok) && bases;
}

type Toolchain = Language & { base: BaseRecipe };
const TOOLCHAINS = LANGUAGES.filter((l): l is Toolchain => l.base !== null);

const neededBy = (language: Language, samples: Sample[]) => samples.filter((s) => s.language === language.id).map((s) => s.name);

export async function diagnose(): Promise<DoctorReport> {
  const host = engineHosts()[0]!;
  const samples = listSamples();
  // Asked at once, so a slow cluster does not add to the Docker checks.
  const cluster = clusterHealth();
  const engines = engineStatuses();
  const report: DoctorReport = {
    engine: { ok: false, version: '', host },
    engines: [],
    baseImage: { ok: false, tag: BASE_IMAGE },
    sampleImages: samples.map((s) => ({ tag: `bugbench/repo-${s.name}:latest`, ok: false })),
    toolchainBases: TOOLCHAINS.map((l) => ({ language: l.id, tag: l.base.tag, ok: false, state: 'unknown' as const, holds: l.base.holds, neededBy: neededBy(l, samples) })),
    anthropicKey: Boolean(process.env.ANTHROPIC_API_KEY),
    policies: availablePolicies(),
    cluster: { ok: false, detail: 'not checked yet' },
  };
  try {
    const info = await engineInfo(host);
    report.engine = { ok: true, version: info.version, host };
  } catch (error) {
    report.engine.detail = errorMessage(error);
    report.engines = await engines;
    report.cluster = await cluster;
    return report;
  }
  const docker = dockerClient(host);
  report.baseImage.ok = await imageExists(docker, BASE_IMAGE);
  report.sampleImages = await Promise.all(
    samples.map(async (s) => {
      const status = await sampleImageStatus(docker, s);
      return { tag: status.tag, ok: status.ok };
    }),
  );
  report.toolchainBases = await Promise.all(
    TOOLCHAINS.map(async (l) => {
      const { state } = await toolchainBaseStatus(docker, l);
      return { language: l.id, tag: l.base.tag, ok: state === 'ready', state, holds: l.base.holds, neededBy: neededBy(l, samples) };
    }),
  );
  report.engines = await engines;
  report.cluster = await cluster;
  return report;
}

/** Makes everything that is missing, then reports. Idempotent and fast when all is there. */
export async function fix(progress: Progress): Promise<DoctorReport> {
  await ensureEngine(progress);
  const docker = dockerClient();
  const reaped = await reapOrphansEverywhere();
  if (reaped.removed.length > 0) progress(`removed ${reaped.removed.length} container(s) left by dead bugbench processes`);
  await ensureBaseImage(docker, progress);
  const samples = listSamples();
  for (const language of TOOLCHAINS) {
    if (neededBy(language, samples).length > 0) await ensureLanguageBase(docker, language, progress);
  }
  await ensureSampleImages(docker, progress);
  return diagnose();
}
