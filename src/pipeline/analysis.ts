/**
 * BugPilot's analysis of a valid bug, kept with it: a bug report written from
 * what the failing tests printed (by the model, or offline by bugbench's
 * template, marked as such) in `bugs/<id>/report.md`; a category A–J with the
 * model's reason (offline: `uncategorized`); and the statistics of the patch
 * that makes the bug (BugPilot Table 7, tokens counted with o200k_base).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPrompt } from '../agent/prompts.js';
import { ARTIFACT_FILES, BUG_FILES } from '../bugs/artifact.js';
import type { ReportJson } from '../bugs/check-report.js';
import { failureNotes, formatFailureNotes } from '../bugs/failure-notes.js';
import { patchStats } from '../bugs/patch-stats.js';
import { reverseDiff } from '../bugs/reverse-diff.js';
import { BugbenchError, errorMessage } from '../errors.js';
import { writeFileAtomic } from '../atomic.js';
import { readJsonFile } from '../json-file.js';
import { bugFolder, checkFolder, type Analysis, type BugRecord } from '../store/records.js';
import { RecordNotFoundError, type Store } from '../store/store.js';
import type { Budget } from '../agent/budget.js';
import { askModel, textModel, type ModelSettings } from './policy.js';

export const TOKENIZER = 'o200k_base (gpt-tokenizer)';
const CATEGORY_LETTERS = 'ABCDEFGHIJ';

export class AnalysisError extends BugbenchError {
  constructor(message: string) {
    super('BB_ANALYSIS', message);
  }
}

let tokenCounter: Promise<(text: string) => number> | undefined;

/** Counts tokens with o200k_base; the tables load once, on first use. */
export function tokenCount(): Promise<(text: string) => number> {
  tokenCounter ??= import('gpt-tokenizer/encoding/o200k_base').then(({ countTokens }) => (text: string) => countTokens(text, { disallowedSpecial: new Set() }));
  return tokenCounter;
}

/** The diff that makes the bug from the original code: bug_inject.diff, or for a higher-order bug the reverse of its gold patch. */
export function bugPatchOf(store: Store, bug: BugRecord): string {
  const dir = store.abs(bugFolder(bug.id));
  const gold = join(dir, BUG_FILES.goldPatch);
  if (bug.order > 1 && existsSync(gold)) return reverseDiff(readFileSync(gold, 'utf8'));
  return readFileSync(join(dir, ARTIFACT_FILES.bugInject), 'utf8');
}

/** What each FAIL_TO_PASS test printed in the buggy run of the bug's latest check. */
export function failingOutput(store: Store, bug: BugRecord): string {
  const folder = checkFolder(bug);
  if (!bug.check?.valid || !folder) throw new AnalysisError(`bug ${bug.id} has no valid check to read the failing tests from`);
  const tests = readJsonFile<{ FAIL_TO_PASS: string[] }>(store.abs(join(folder, 'tests.json')));
  const report = readJsonFile<ReportJson>(store.abs(join(folder, 'report.json')));
  const buggy = report?.checks.find((c) => c.name === 'bug-validity')?.runs[0];
  const log = buggy && existsSync(store.abs(buggy.logPath)) ? readFileSync(store.abs(buggy.logPath), 'utf8') : '';
  return formatFailureNotes(failureNotes(log, tests?.FAIL_TO_PASS ?? []));
}

/** Reads "<reasoning>…</reasoning><category>X</category>"; undefined if there is no letter A–J. */
export function parseCategory(text: string): { category: string; reason: string } | undefined {
  const letter = /<category>\s*([A-Ja-j])\b[^<]*<\/category>/.exec(text)?.[1]?.toUpperCase();
  if (!letter || !CATEGORY_LETTERS.includes(letter)) return undefined;
  const reason = /<reasoning>([\s\S]*?)<\/reasoning>/.exec(text)?.[1]?.trim() ?? '';
  return { category: letter, reason };
}

/** The bug's report, if it has one. */
export function readReport(store: Store, id: string): string | undefined {
  const path = store.abs(join(bugFolder(id), BUG_FILES.report));
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** `budget`: the run's, when the analysis is part of one (its cost counts against the run's cap). */
/** What an analysis is paid from and cancelled by: the run's budget and signal, when a run asks. */
export interface AnalysisLimits {
  signal?: AbortSignal;
  budget?: Budget;
}

export async function analyseBug(target: { store: Store; id: string }, settings: ModelSettings, limits: AnalysisLimits = {}): Promise<Analysis> {
  const { store, id } = target;
  const { signal, budget } = limits;
  const bug = store.get('bugs', id);
  if (!bug) throw new RecordNotFoundError('bugs', id);
  const failures = failingOutput(store, bug);
  const patch = bugPatchOf(store, bug);
  const model = textModel(settings);
  let costUsd = 0;
  let report: string;
  let category = 'uncategorized';
  let categoryReason: string | null = null;
  if (model) {
    try {
      const written = await askModel(model, { system: 'You write clear, factual bug reports.', prompt: renderPrompt('bug-report', { failures }) }, { signal, budget });
      report = written.text;
      costUsd += written.costUsd;
      const judged = await askModel(model, { system: 'You sort software bugs into kinds.', prompt: renderPrompt('bug-category', { report, patch: patch.slice(0, 60_000) }) }, { signal, budget });
      costUsd += judged.costUsd;
      const parsed = parseCategory(judged.text);
      if (parsed) [category, categoryReason] = [parsed.category, parsed.reason];
      else categoryReason = `the model named no category A–J: ${judged.text.slice(0, 200)}`;
    } catch (error) {
      throw new AnalysisError(`the model could not analyse bug ${id}: ${errorMessage(error)}`);
    }
  } else {
    report = renderPrompt('report-template', { count: bug.check?.failToPass ?? 0, failures });
  }
  writeFileAtomic(store.abs(join(bugFolder(id), BUG_FILES.report)), `${report.trimEnd()}\n`);
  const analysis: Analysis = {
    report: { source: model ? 'model' : 'template', model: model?.name ?? null },
    category,
    categoryReason,
    stats: patchStats(patch, await tokenCount(), TOKENIZER),
    costUsd,
    at: new Date().toISOString(),
  };
  store.transact((tx) => tx.patch('bugs', id, { analysis }));
  return analysis;
}
