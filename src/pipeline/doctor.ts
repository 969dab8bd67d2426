/**
 * `bugbench doctor`: what this machine has of what bugbench needs, and with
 * `fix`, making what can be made (engine, base image, the toolchain bases the
 * samples need, sample images). Each configured engine is named with its kind
 * (Docker or Podman, rootful or rootless, its runtime), tried with one real
 * container, and what it lacks is said; for a cluster, which engine its jobs'
 * containers would use.
 */
import { availablePolicies, type PolicyName } from '../agent/policies.js';
import { errorMessage } from '../errors.js';
import type { Progress } from '../progress.js';
import { BASE_IMAGE, ensureBaseImage } from '../sandbox/docker-api/base-image.js';
import { defaultContainerEngine, engineAt, engineTypeOf } from '../sandbox/engine-table.js';
import type { BwrapEngine } from '../sandbox/bwrap/engine.js';
import { diagnoseBwrapNode, type BwrapNodeFacts } from '../sandbox/bwrap/node-check.js';
import { engineHosts } from '../sandbox/engine-config.js';
import { ensureEngine } from '../sandbox/engine.js';
import { diagnoseEngine, type EngineDiagnosis } from '../sandbox/docker-api/engine-diagnosis.js';
import { engineSpecs, engineStatuses, openEngine, type EngineStatus } from '../sandbox/engines.js';
import { reapOrphansEverywhere } from '../sandbox/orphans.js';
import { LANGUAGES, type BaseRecipe, type Language } from '../sandbox/languages.js';
import { ensureSampleImages, listSamples, sampleImageStatus, sampleImageTag, type Sample } from '../sandbox/docker-api/samples.js';
import { ensureLanguageBase, toolchainBaseStatus, type BaseState } from '../sandbox/docker-api/toolchain-base.js';
import { clusterHealth, type ClusterHealth } from '../training/queue.js';
import { loadTrainingSettings } from '../training/settings.js';
import { jobSandboxes } from '../cluster/slurm/job-user.js';
import { taskEngines } from '../cluster/task-engines.js';

/** An engine's status and diagnosis; a bwrap engine's also what its node has of what the kind needs. */
export type EngineReport = EngineStatus & Partial<EngineDiagnosis> & { bwrap?: BwrapNodeFacts };

export interface DoctorReport {
  /** The default engine (the first configured): images are built there. */
  engine: { ok: boolean; version: string; host: string; kind?: string; detail?: string };
  /** Every configured engine: kind, slots, repo images, and whether it makes bugbench's containers (with what it lacks). */
  engines: EngineReport[];
  /**
   * The default engine runs packed images (bwrap:///DIR): images are built
   * and packed where an engine is, so base, toolchain and sample images are
   * not looked for, and the node's needs decide its health.
   */
  packedOnly?: boolean;
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
  cluster: ClusterHealth & { containers?: string };
}

export function reportHealthy(report: DoctorReport): boolean {
  if (report.packedOnly) {
    const node = report.engines[0];
    return report.engine.ok && node?.containers?.ok !== false && (node?.missing ?? ['not looked at']).length === 0;
  }
  const bases = (report.toolchainBases ?? []).every((b) => b.ok || b.neededBy.length === 0);
  const first = report.engines[0];
  return report.engine.ok && first?.containers?.ok !== false && report.baseImage.ok && report.sampleImages.every((s) => s.ok) && bases;
}

/** Each engine that answers, tried with one container of the base image. */
async function diagnosedEngines(): Promise<EngineReport[]> {
  const statuses = await engineStatuses();
  const specs = engineSpecs();
  return Promise.all(
    statuses.map(async (status, i): Promise<EngineReport> => {
      // A bwrap node is looked at even when its engine does not answer: what it lacks is why.
      if (engineTypeOf(status.host) === 'bwrap') return { ...status, ...(await diagnoseBwrapNode(engineAt(status.host) as BwrapEngine)) };
      if (!status.ok) return status;
      try {
        return { ...status, ...(await diagnoseEngine(await openEngine(specs[i]!), BASE_IMAGE)) };
      } catch (error) {
        return { ...status, containers: { ok: false, ms: 0, detail: errorMessage(error) }, missing: [], notes: [] };
      }
    }),
  );
}

/** What the Slurm jobs' sandboxes run on (the bwrap folders named here, else the node's engine), or why they cannot, when the job user is known here. */
function clusterContainers(): string | undefined {
  try {
    const slurm = loadTrainingSettings().slurm;
    const sandboxes = slurm.user ? jobSandboxes(slurm.user, taskEngines()) : undefined;
    return sandboxes && (sandboxes.ok ? sandboxes.description : `none: ${sandboxes.problem}`);
  } catch {
    return undefined;
  }
}

type Toolchain = Language & { base: BaseRecipe };
const TOOLCHAINS = LANGUAGES.filter((l): l is Toolchain => l.base !== null);

const neededBy = (language: Language, samples: Sample[]) => samples.filter((s) => s.language === language.id).map((s) => s.name);

export async function diagnose(): Promise<DoctorReport> {
  const host = engineHosts()[0]!;
  const samples = listSamples();
  // Asked at once, so a slow cluster does not add to the engine checks.
  const cluster = clusterHealth();
  const engines = diagnosedEngines();
  const report: DoctorReport = {
    engine: { ok: false, version: '', host },
    engines: [],
    ...(engineTypeOf(host) === 'bwrap' ? { packedOnly: true } : {}),
    baseImage: { ok: false, tag: BASE_IMAGE },
    sampleImages: samples.map((s) => ({ tag: sampleImageTag(s.name), ok: false })),
    toolchainBases: TOOLCHAINS.map((l) => ({ language: l.id, tag: l.base.tag, ok: false, state: 'unknown' as const, holds: l.base.holds, neededBy: neededBy(l, samples) })),
    anthropicKey: Boolean(process.env.ANTHROPIC_API_KEY),
    policies: availablePolicies(),
    cluster: { ok: false, detail: 'not checked yet' },
  };
  const finish = async () => {
    report.engines = await engines;
    const health = await cluster;
    const containers = health.ok && health.engine === 'slurm' ? clusterContainers() : undefined;
    report.cluster = { ...health, ...(containers ? { containers } : {}) };
    return report;
  };
  try {
    const info = await engineAt(host).info();
    report.engine = { ok: true, version: info.version, host };
  } catch (error) {
    report.engine.detail = errorMessage(error);
    return finish();
  }
  if (report.packedOnly) {
    await finish();
    report.engine.kind = report.engines[0]?.kind ?? undefined;
    return report;
  }
  const engine = engineAt(host);
  report.baseImage.ok = (await engine.inspectImage(BASE_IMAGE)) !== undefined;
  report.sampleImages = await Promise.all(
    samples.map(async (s) => {
      const status = await sampleImageStatus(engine, s);
      return { tag: status.tag, ok: status.ok };
    }),
  );
  report.toolchainBases = await Promise.all(
    TOOLCHAINS.map(async (l) => {
      const { state } = await toolchainBaseStatus(engine, l);
      return { language: l.id, tag: l.base.tag, ok: state === 'ready', state, holds: l.base.holds, neededBy: neededBy(l, samples) };
    }),
  );
  await finish();
  report.engine.kind = report.engines[0]?.kind ?? undefined;
  return report;
}

/** Makes everything that is missing, then reports. Idempotent and fast when all is there. */
export async function fix(progress: Progress): Promise<DoctorReport> {
  if (engineTypeOf(engineHosts()[0]!) === 'bwrap') return fixBwrapNode(progress);
  await ensureEngine(progress);
  const engine = defaultContainerEngine();
  const reaped = await reapOrphansEverywhere();
  if (reaped.removed.length > 0) progress(`removed ${reaped.removed.length} container(s) left by dead bugbench processes`);
  await ensureBaseImage(engine, progress);
  const samples = listSamples();
  for (const language of TOOLCHAINS) {
    if (neededBy(language, samples).length > 0) await ensureLanguageBase(engine, language, progress);
  }
  await ensureSampleImages(engine, progress);
  return diagnose();
}

/**
 * A node whose default engine is bwrap:///DIR: there is no engine to start
 * and nothing to build (images are packed where an engine is); what a dead
 * bugbench left is removed, and the report says what the node lacks.
 */
async function fixBwrapNode(progress: Progress): Promise<DoctorReport> {
  const reaped = await reapOrphansEverywhere();
  if (reaped.removed.length > 0) progress(`removed ${reaped.removed.length} sandbox(es) left by dead bugbench processes`);
  progress(`${engineHosts()[0]} runs packed images with bwrap: no engine to start and no image to build here; what the node lacks is installed by its administrators`);
  return diagnose();
}
