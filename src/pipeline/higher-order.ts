/**
 * Higher-order bugs (Self-play SWE-RL 2.3): a failed repair whose patch still
 * leaves oracle tests failing becomes a new bug — the parent's artifact with
 * the attempt's patch (its code files) as pred_patch.diff, order 2, linked to
 * its parent and attempt — and is checked again; its FAIL_TO_PASS comes from
 * those checks. Never beyond order 2. Attempts that lead to the same buggy
 * state make one bug. Files the prediction repaired completely are left out
 * of both diffs: they are no longer part of the bug, and inverse mutation
 * would find them unneeded. The gold patch (what takes the new buggy code
 * back to the original) is made in a container and kept beside the artifact.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isTestInfrastructure } from '../bugs/test-infrastructure.js';
import { ARTIFACT_FILES, BUG_FILES, loadArtifact, type BugArtifact } from '../bugs/artifact.js';
import { formatDiffFiles, parseDiffFiles } from '../bugs/diff.js';
import { bugFingerprint } from '../bugs/fingerprint.js';
import { DEFAULT_CHECK_PARAMS } from '../bugs/meta.js';
import { buildState, goldPaths } from '../bugs/repo-state.js';
import { installArtifact } from '../bugs/test-run.js';
import { BugbenchError, errorMessage } from '../errors.js';
import { bugFolder } from '../store/records.js';
import { RecordNotFoundError } from '../store/store.js';
import { analyseBug } from './analysis.js';
import { checkStoredBug } from './bug-checks.js';
import { ignore, type Deps, type Report } from './events.js';
import { addBug } from './new-bug.js';
import { defaultPolicy, type ModelSettings } from './policy.js';
import { openSandbox } from '../sandbox/engine-table.js';

/** Self-play SWE-RL stops at the second order: more would overlap existing bugs. */
export const MAX_ORDER = 2;

export class HigherOrderRefusedError extends BugbenchError {
  constructor(message: string) {
    super('BB_HIGHER_ORDER_REFUSED', message);
  }
}

export interface HigherOrderSettings {
  /** The bug whose failed attempts become order-2 bugs. */
  parentId: string;
  /** Who writes the report and category of each valid new bug (default: the default policy). */
  analysis?: ModelSettings;
}

export interface HigherOrderResult {
  parent: string;
  bugs: { id: string; attempt: string; valid: boolean; status: string; failedCheck: string | null }[];
  skipped: { attempt: string; reason: string }[];
}

/** The attempt's changes to code files (its edits of tests are not part of a bug). */
function codePart(patch: string, artifact: BugArtifact): string {
  const tests = new Set(artifact.testFiles);
  return formatDiffFiles(parseDiffFiles(patch).filter((f) => ![f.oldPath, f.newPath].some((p) => p !== undefined && (tests.has(p) || isTestInfrastructure(p)))));
}

/** The gold patch of the state bug + weakening + prediction, made in a fresh container of the image. */
async function goldPatch(image: string, artifact: BugArtifact, base: string, runId: string, engine: Deps['engine']): Promise<string> {
  const sandbox = await openSandbox({ image, runId, engine });
  try {
    await installArtifact(sandbox, artifact);
    await buildState(sandbox, artifact, base, { bug: true, weaken: true });
    return await sandbox.diff(goldPaths(artifact), { reverse: true });
  } finally {
    await sandbox.remove();
  }
}

/** How an attempt that only repaired whole files of the bug is skipped. */
const WHOLE_FILES = 'its patch only repaired whole files of the bug';

/**
 * Why the failed attempts made no higher-order bug, said once, when the
 * offline solvers are the cause: they apply whole hunks of the fix, so a bug
 * whose files each change in one hunk gets no state of theirs that is new.
 */
export function offlineSolverNote(skipped: readonly { reason: string }[]): string | undefined {
  if (!skipped.some((s) => s.reason.startsWith(WHOLE_FILES))) return undefined;
  return 'the offline solvers apply whole hunks: a bug of one hunk a file gets none';
}

/** Keeps only the files of `diff` that `keep` names. */
function onlyFiles(diff: string, keep: Set<string>): string {
  return formatDiffFiles(parseDiffFiles(diff).filter((f) => keep.has(f.newPath ?? f.oldPath ?? '')));
}

export async function buildHigherOrder(settings: HigherOrderSettings, deps: Deps, report: Report = ignore): Promise<HigherOrderResult> {
  const { store } = deps;
  const { parentId } = settings;
  const parent = store.get('bugs', parentId);
  if (!parent) throw new RecordNotFoundError('bugs', parentId);
  if (parent.order >= MAX_ORDER) {
    throw new HigherOrderRefusedError(`bug ${parentId} is of order ${parent.order}; higher-order bugs stop at order ${MAX_ORDER}`);
  }
  const dir = store.abs(bugFolder(parentId));
  const artifact = loadArtifact(dir);
  const attempts = store.all('attempts').filter((a) => a.bugId === parentId);
  if (attempts.length === 0) throw new HigherOrderRefusedError(`bug ${parentId} has no solver attempts yet; run \`bugbench solve ${parentId}\` first`);
  const result: HigherOrderResult = { parent: parentId, bugs: [], skipped: [] };
  const made = new Map<string, string>();
  // Order-2 bugs made from this parent before keep their states: the same state is not made twice.
  for (const bug of store.all('bugs')) if (bug.parentId === parentId) made.set(bug.fingerprint, bug.id);

  for (const attempt of attempts) {
    if (deps.signal?.aborted) break;
    const skip = (reason: string) => result.skipped.push({ attempt: attempt.id, reason });
    if (attempt.status !== 'evaluated' || attempt.solved || !attempt.patch) {
      skip(attempt.solved ? 'it solved the bug' : `it has no evaluated patch (${attempt.status})`);
      continue;
    }
    if (attempt.failing.length === 0) {
      skip('no oracle test failed after it');
      continue;
    }
    const pred = codePart(readFileSync(store.abs(attempt.patch), 'utf8'), artifact);
    if (pred.trim() === '') {
      skip('it changed no code: its state is the parent bug itself');
      continue;
    }
    const staging = store.abs(join('bugs', `.higher-${process.pid}-${attempt.id}`));
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    try {
      for (const name of [ARTIFACT_FILES.testFiles, ARTIFACT_FILES.testScript, ARTIFACT_FILES.testParser, ARTIFACT_FILES.bugInject, ARTIFACT_FILES.testWeaken]) {
        copyFileSync(join(dir, name), join(staging, name));
      }
      writeFileSync(join(staging, ARTIFACT_FILES.predPatch), pred);
      const gold = await goldPatch(parent.image, loadArtifact(staging), parent.baseCommit, `${attempt.id}-gold`, deps.engine);
      const buggyFiles = new Set(parseDiffFiles(gold).map((f) => f.newPath ?? f.oldPath ?? ''));
      if (buggyFiles.size === 0) {
        skip('with its patch the code is the original again');
        continue;
      }
      // Files the prediction repaired completely leave both diffs.
      const repaired = new Set(parseDiffFiles(artifact.bugInject).map((f) => f.newPath ?? f.oldPath ?? '').filter((p) => !buggyFiles.has(p)));
      if (repaired.size > 0) {
        const keepBug = new Set(parseDiffFiles(artifact.bugInject).map((f) => f.newPath ?? f.oldPath ?? '').filter((p) => !repaired.has(p)));
        const keepPred = new Set(parseDiffFiles(pred).map((f) => f.newPath ?? f.oldPath ?? '').filter((p) => !repaired.has(p)));
        writeFileSync(join(staging, ARTIFACT_FILES.bugInject), onlyFiles(artifact.bugInject, keepBug));
        writeFileSync(join(staging, ARTIFACT_FILES.predPatch), onlyFiles(pred, keepPred));
      }
      if (readFileSync(join(staging, ARTIFACT_FILES.bugInject), 'utf8').trim() === '') {
        skip('its patch repaired every file of the bug; what still fails comes from its own changes');
        continue;
      }
      // A state made only of the parent's own code is part of the parent bug, not one the solver made.
      if (readFileSync(join(staging, ARTIFACT_FILES.predPatch), 'utf8').trim() === '') {
        skip(`${WHOLE_FILES} (${[...repaired].join(', ')}) and changed nothing else: what is left is the parent's own bug, not a new state`);
        continue;
      }
      writeFileSync(join(staging, BUG_FILES.goldPatch), gold);
      const fingerprint = bugFingerprint(
        [readFileSync(join(staging, ARTIFACT_FILES.bugInject), 'utf8'), readFileSync(join(staging, ARTIFACT_FILES.predPatch), 'utf8')].join('\n'),
      );
      const same = made.get(fingerprint);
      if (same) {
        skip(`it leads to the same state as bug ${same}`);
        continue;
      }
      const bug = addBug(store, staging, {
        image: parent.image,
        imageId: null,
        repo: parent.repo,
        baseCommit: parent.baseCommit,
        strategy: parent.strategy,
        policy: attempt.policy ?? parent.policy,
        model: attempt.solver,
        order: parent.order + 1,
        parentId,
        attemptId: attempt.id,
        runId: attempt.runId,
        rollout: attempt.id,
        trajectory: join('runs', attempt.runId, `${attempt.id}.jsonl`),
        params: { ...DEFAULT_CHECK_PARAMS, ...artifact.meta?.params },
        extraMeta: { attemptId: attempt.id, solver: attempt.solver, baseUrl: attempt.baseUrl ?? null },
      });
      made.set(fingerprint, bug.id);
      report({ type: 'bug-added', bug, attempt });
      const { bug: checked } = await checkStoredBug({ bugId: bug.id, runId: `${bug.id}-check` }, deps, report);
      if (checked.check?.valid) {
        await analyseBug({ store, id: bug.id }, settings.analysis ?? { policy: defaultPolicy() }, { signal: deps.signal }).catch((error: unknown) =>
          skip(`its analysis failed: ${errorMessage(error)}`),
        );
      }
      result.bugs.push({ id: bug.id, attempt: attempt.id, valid: checked.check?.valid === true, status: checked.status, failedCheck: checked.check?.failedCheck ?? null });
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return result;
}
