/**
 * Verifying an export (`bugbench verify-export`): each instance of a
 * `swebench` or `rl` JSONL file is rebuilt from the file alone (its patches,
 * test files, script and parser), its tests are run N times before the fix
 * (the starting state with the oracle tests put back, as evaluation runs them)
 * and N times after it (the exported `patch` evaluated), in one fresh
 * container of its image, and every test whose result differs from the
 * instance's FAIL_TO_PASS / PASS_TO_PASS in any run is reported
 * (export-verdict.ts). Nothing of the workspace is read: the file is the record.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACT_FILES, loadArtifact } from '../bugs/artifact.js';
import { CheckContext } from '../bugs/check-context.js';
import { evaluationLayers } from '../bugs/evaluate.js';
import { DEFAULT_CHECK_PARAMS } from '../bugs/meta.js';
import { runProblem } from '../bugs/run-problems.js';
import type { TestMap } from '../bugs/test-results.js';
import { ArtifactError, CancelledError, ImageNotAdoptedError, ImageNotFoundError } from '../errors.js';
import type { ContainerEngine } from '../sandbox/port.js';
import { ExportFileError } from './export-error.js';
import { EXPORT_MANIFEST } from './out-target.js';
import type { TaskMaterial } from './task-scripts.js';
import { instanceDifferences, type InstanceState, type TestDifference } from './export-verdict.js';

export const DEFAULT_VERIFY_RUNS = 3;

/** What verify-export reads of one instance: the material a task is made from, its image, the fix and its test lists. */
export interface ExportedInstance extends Omit<TaskMaterial, 'world' | 'adopted'> {
  id: string;
  image: string;
  patch: string;
  failToPass: string[];
  passToPass: string[];
}

export type VerifyEvent =
  | { type: 'instance-started'; index: number; total: number; id: string; image: string }
  | { type: 'run-finished'; id: string; state: InstanceState; run: number; of: number; problem?: string }
  | { type: 'instance-finished'; verdict: InstanceVerdict };

export interface InstanceVerdict {
  id: string;
  image: string;
  holds: boolean;
  differences: TestDifference[];
  /** Runs whose results could not be read at all (timed out, parser failed): the instance does not hold. */
  problems: string[];
  /** The runs' logs. */
  logs: string;
  /** Why the instance could not be verified here at all (its image is not on this engine, or not adopted in this workspace), and what to do; absent when it ran. */
  unverified?: string;
}

export interface VerifyExportResult {
  path: string;
  runs: number;
  instances: InstanceVerdict[];
  holding: number;
  /** Instances that ran and differ from their record. */
  differing: number;
  /** Instances that could not be run here (`unverified` says why). */
  unverified: number;
  /** The folder of every instance's logs. */
  logs: string;
}

const text = (v: unknown): v is string => typeof v === 'string';
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every(text);

/** One line of a swebench (or rl: its `instance`) export as an instance; ExportFileError naming the line and field when it is not one. */
export function parseInstance(line: string, where: string): ExportedInstance {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ExportFileError(`${where} is not JSON; verify-export reads the JSONL of \`bugbench export --format swebench\` or \`--format rl\``);
  }
  const row = (value as { instance?: unknown }).instance ?? value;
  const r = row as Record<string, unknown>;
  const b = (r.bugbench ?? {}) as Record<string, unknown>;
  const missing = (field: string) =>
    new ExportFileError(`${where} has no ${field}; verify-export needs the instances bugbench exports (\`--format swebench\` or \`--format rl\`), which carry their tests, script and parser`);
  if (!text(r.instance_id)) throw missing('instance_id');
  const image = r.image_name ?? r.docker_image;
  if (!text(image)) throw missing('image_name');
  for (const field of ['base_commit', 'patch'] as const) if (!text(r[field])) throw missing(field);
  for (const field of ['FAIL_TO_PASS', 'PASS_TO_PASS'] as const) if (!strings(r[field])) throw missing(field);
  for (const field of ['bug_patch', 'weaken_patch', 'test_script', 'test_parser'] as const) if (!text(b[field])) throw missing(`bugbench.${field}`);
  if (!strings(b.test_files)) throw missing('bugbench.test_files');
  return {
    id: r.instance_id,
    image,
    baseCommit: r.base_commit as string,
    patch: r.patch as string,
    failToPass: r.FAIL_TO_PASS as string[],
    passToPass: r.PASS_TO_PASS as string[],
    bugPatch: b.bug_patch as string,
    weakenPatch: b.weaken_patch as string,
    predPatch: text(b.pred_patch) && b.pred_patch !== '' ? b.pred_patch : null,
    testFiles: b.test_files,
    testScript: b.test_script as string,
    testParser: b.test_parser as string,
    testTimeoutSec: typeof b.test_timeout_sec === 'number' && b.test_timeout_sec > 0 ? b.test_timeout_sec : DEFAULT_CHECK_PARAMS.testTimeoutSec,
  };
}

/** The format a folder export's manifest names, if it is one. */
function folderFormat(path: string): string | undefined {
  const manifest = join(path, EXPORT_MANIFEST);
  if (!existsSync(manifest)) return undefined;
  try {
    const format = (JSON.parse(readFileSync(manifest, 'utf8')) as { format?: unknown }).format;
    return typeof format === 'string' ? format : undefined;
  } catch {
    return undefined;
  }
}

/** Why a path that is there is not a file verify-export can read, or undefined for a regular file. */
function notAFile(path: string): string | undefined {
  const stats = statSync(path);
  if (stats.isFile()) return undefined;
  if (!stats.isDirectory()) return `${path} is not a regular file`;
  const format = folderFormat(path);
  const what = format ? `a folder (a \`${format}\` export)` : 'a folder';
  const harbor = format === 'harbor' ? '; a Harbor task is run by Harbor itself (`harbor run -p DIR/<bug-id>`)' : '';
  return `${path} is ${what}: verify-export reads one JSONL file of \`swebench\` or \`rl\` instances; write the same bugs as one with \`bugbench export --format swebench --out FILE\` and verify that${harbor}`;
}

/** Every instance of an export file, in order. */
export function readExport(path: string): ExportedInstance[] {
  if (!existsSync(path)) throw new ExportFileError(`no export file at ${path}; give the JSONL that \`bugbench export --format swebench --out FILE\` wrote`);
  const refusal = notAFile(path);
  if (refusal) throw new ExportFileError(refusal);
  const lines = readFileSync(path, 'utf8').split('\n');
  const instances = lines.flatMap((line, i) => (line.trim() === '' ? [] : [parseInstance(line, `line ${i + 1} of ${path}`)]));
  if (instances.length === 0) throw new ExportFileError(`${path} holds no instance`);
  return instances;
}

/** The instance as an artifact folder under `dir`, so the checks' own machinery builds its states. */
function instanceArtifact(instance: ExportedInstance, dir: string) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, ARTIFACT_FILES.testFiles), `${instance.testFiles.join('\n')}\n`);
  writeFileSync(join(dir, ARTIFACT_FILES.testScript), instance.testScript);
  writeFileSync(join(dir, ARTIFACT_FILES.testParser), instance.testParser);
  writeFileSync(join(dir, ARTIFACT_FILES.bugInject), instance.bugPatch);
  writeFileSync(join(dir, ARTIFACT_FILES.testWeaken), instance.weakenPatch);
  if (instance.predPatch !== null) writeFileSync(join(dir, ARTIFACT_FILES.predPatch), instance.predPatch);
  try {
    return loadArtifact(dir);
  } catch (error) {
    if (error instanceof ArtifactError) throw new ExportFileError(`instance ${instance.id}: ${error.message}`);
    throw error;
  }
}

/** Runs one instance's two states `runs` times each in one fresh container, and holds the results to its record. */
async function verifyInstance(
  instance: ExportedInstance,
  runs: number,
  folder: string,
  deps: { engine?: ContainerEngine; signal?: AbortSignal; runId: string },
  report: (e: VerifyEvent) => void,
): Promise<InstanceVerdict> {
  const logs = join(folder, 'logs');
  mkdirSync(logs, { recursive: true });
  const artifact = instanceArtifact(instance, join(folder, 'artifact'));
  const ctx = new CheckContext({
    artifact,
    image: instance.image,
    baseCommit: instance.baseCommit,
    params: { ...DEFAULT_CHECK_PARAMS, testTimeoutSec: instance.testTimeoutSec },
    logDir: logs,
    parallelism: 1,
    engine: deps.engine,
    signal: deps.signal,
    runId: deps.runId,
  });
  const maps: Record<InstanceState, TestMap[]> = { 'before the fix': [], 'after the fix': [] };
  const problems: string[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      for (const [state, layers] of [
        ['before the fix', evaluationLayers('')],
        ['after the fix', evaluationLayers(instance.patch)],
      ] as const) {
        if (deps.signal?.aborted) throw new CancelledError('the verification');
        const record = await ctx.run('evaluate', `${state} ${run}`, layers, state);
        const problem = runProblem(record);
        if (problem) problems.push(problem);
        else maps[state].push(record.results);
        report({ type: 'run-finished', id: instance.id, state, run, of: runs, problem });
      }
    }
  } finally {
    await ctx.close();
  }
  const differences = instanceDifferences(instance, maps['before the fix'], maps['after the fix']);
  return { id: instance.id, image: instance.image, holds: differences.length === 0 && problems.length === 0, differences, problems, logs };
}

/** Verifies every instance of the export at `path`; the logs stay under `logDir` (default: a new temporary folder). */
export async function verifyExport(
  settings: { path: string; runs?: number; logDir?: string },
  deps: { engine?: ContainerEngine; signal?: AbortSignal } = {},
  report: (e: VerifyEvent) => void = () => undefined,
): Promise<VerifyExportResult> {
  const runs = settings.runs ?? DEFAULT_VERIFY_RUNS;
  const instances = readExport(settings.path);
  const workDir = settings.logDir ?? mkdtempSync(join(tmpdir(), 'bugbench-verify-'));
  const verdicts: InstanceVerdict[] = [];
  for (const [index, instance] of instances.entries()) {
    report({ type: 'instance-started', index, total: instances.length, id: instance.id, image: instance.image });
    // The id comes from the file: it names no folder by itself.
    const folder = join(workDir, `${index + 1}-${instance.id.replace(/[^\w.-]/g, '_')}`);
    if (deps.signal?.aborted) throw new CancelledError('the verification');
    // Its containers are labelled verify-<pid>-<n>, so what a killed verification left is told apart from other work.
    const runId = `verify-${process.pid}-${index + 1}`;
    const verdict = await verifyInstance(instance, runs, folder, { ...deps, runId }, report).catch((error: unknown) => {
      const why = unverifiable(error, instance.image);
      if (why === undefined) throw error;
      return { id: instance.id, image: instance.image, holds: false, differences: [], problems: [], logs: join(folder, 'logs'), unverified: why };
    });
    rmSync(join(folder, 'artifact'), { recursive: true, force: true });
    verdicts.push(verdict);
    report({ type: 'instance-finished', verdict });
  }
  const holding = verdicts.filter((v) => v.holds).length;
  const unverified = verdicts.filter((v) => v.unverified !== undefined).length;
  return { path: settings.path, runs, instances: verdicts, holding, differing: verdicts.length - holding - unverified, unverified, logs: workDir };
}

/**
 * Why an instance cannot be run here, for the errors that say so of its image
 * alone (the file may come from another workspace): its image is not on this
 * engine, or was adopted there and not here. Undefined for any other error.
 */
function unverifiable(error: unknown, image: string): string | undefined {
  if (error instanceof ImageNotAdoptedError) {
    return `its image ${image} is not one bugbench built, and this workspace has not adopted it (the export's maker did); adopt it here with \`bugbench images add ${image}\` (with the --root and --user it was adopted with, if bugbench does not find them) and verify again`;
  }
  if (error instanceof ImageNotFoundError) {
    return `its image ${image} is not on this engine; pull it (\`docker pull ${image}\`) or build it, then verify again`;
  }
  return undefined;
}
