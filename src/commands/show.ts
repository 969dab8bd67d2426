/** `bugbench show <bug-id> [--json]`: one bug in full. */
import { UsageError } from '../errors.js';
import { bugDetails, type BugDetails } from '../pipeline/bug-details.js';
import { recoveredStore } from '../pipeline/startup.js';
import type { AttemptRecord } from '../store/records.js';
import { parseFlags, printJson } from './args.js';
import type { CommandModule } from './command.js';

const FLAGS = { json: { type: 'boolean', default: false } } as const;

export async function showCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('show', args, FLAGS, 1);
  const id = positionals[0];
  if (!id) throw new UsageError('show: give a bug id (see `bugbench bugs`)');
  const store = recoveredStore();
  const details = bugDetails(store, id);
  if (values.json) printJson(showJson(details));
  else process.stdout.write(formatDetails(details));
  return 0;
}

export function showJson(d: BugDetails) {
  return {
    ...d.record,
    artifactDir: d.artifactDir,
    trajectory: d.trajectory,
    meta: d.meta,
    testFiles: d.testFiles,
    checks: d.checks,
    FAIL_TO_PASS: d.FAIL_TO_PASS,
    PASS_TO_PASS: d.PASS_TO_PASS,
    flaky: d.flaky,
    reviews: d.reviews,
    checkHistory: d.checkHistory,
    report: d.report,
    attempts: d.attempts,
    diffs: { bug_inject: d.diffs.bugInject, test_weaken: d.diffs.testWeaken, pred_patch: d.diffs.predPatch },
  };
}

const MARKS: Record<string, string> = { pass: '✓', fail: '✗', skipped: '-', cancelled: '○' };

export function formatDetails(d: BugDetails): string {
  const r = d.record;
  const lines = [
    `bug ${r.id}  ${r.status.toUpperCase()}${r.duplicateOf ? ` of ${r.duplicateOf}` : ''}`,
    `image     ${r.image} (${r.repo} at ${r.baseCommit.slice(0, 12)})`,
    `made by   ${r.strategy} · ${r.model} · order ${r.order}${r.parentId ? ` · parent ${r.parentId}` : ''}${r.rollout ? ` · rollout ${r.rollout}` : ''}`,
    `created   ${r.createdAt.replace('T', ' ').slice(0, 19)}`,
    `artifact  ${d.artifactDir}`,
  ];
  if (d.trajectory) lines.push(`trajectory ${d.trajectory}`);
  lines.push('', r.check ? `checks (${r.check.at.replace('T', ' ').slice(0, 19)}):` : 'checks: none yet');
  for (const check of d.checks ?? []) lines.push(`  ${MARKS[check.verdict] ?? '?'} ${check.name.padEnd(17)} ${check.reason}`);
  if (r.check?.valid) {
    lines.push('', `FAIL_TO_PASS (${d.FAIL_TO_PASS.length}):`, ...d.FAIL_TO_PASS.map((t) => `  ${t}`), `PASS_TO_PASS: ${d.PASS_TO_PASS.length} test(s)`);
  }
  if (d.flaky.length > 0) lines.push('', `flaky, in neither list (${d.flaky.length}):`, ...d.flaky.map((f) => `  ${f.id}: ${f.flips} flip(s): ${f.seen}`));
  if (r.solve) {
    lines.push('', `solving: ${r.solve.solved} of ${r.solve.attempts} attempts solved it (run ${r.solve.runId}) — solve rate ${r.solve.solveRate.toFixed(3)}, injection reward ${r.solve.injectReward.toFixed(3)} (α ${r.solve.alpha})`);
  }
  const unfinished = unfinishedSolves(d.attempts, r.solve?.runId);
  if (unfinished.length > 0) lines.push('', ...unfinished);
  if (r.analysis) {
    const s = r.analysis.stats;
    lines.push(
      `category: ${r.analysis.category}${r.analysis.categoryReason ? ` — ${r.analysis.categoryReason}` : ''}`,
      `patch: ${s.linesOfCode} line(s) of code, ${s.linesOfDocumentation} of documentation, ${s.filesEdited} file(s) edited, ${s.filesCreated} created, ${s.diffTokens} tokens (${s.tokenizer})`,
    );
  }
  if (d.report) lines.push('', `bug report (${r.analysis?.report.source === 'model' ? `written by ${r.analysis.report.model}` : "bugbench's template, from the failing tests"}):`, ...d.report.trimEnd().split('\n').map((l) => `  ${l}`));
  lines.push('', `test files: ${d.testFiles.join(', ')}`);
  for (const review of d.reviews) lines.push(`review: ${review.decision} by ${review.by} at ${review.at.replace('T', ' ').slice(0, 19)}${review.reason ? `: ${review.reason}` : ''}`);
  lines.push('', '--- bug_inject.diff', d.diffs.bugInject.trimEnd(), '', '--- test_weaken.diff', d.diffs.testWeaken.trimEnd());
  if (d.diffs.predPatch) lines.push('', '--- pred_patch.diff', d.diffs.predPatch.trimEnd());
  return `${lines.join('\n')}\n`;
}

/**
 * The solve runs of the bug that never gave a solve rate (cancelled, or their
 * process stopped), each with its attempts counted by status, so an attempt
 * left pending is not silently missing from `show`.
 */
export function unfinishedSolves(attempts: AttemptRecord[], summarised: string | undefined): string[] {
  const byRun = new Map<string, AttemptRecord[]>();
  for (const a of attempts) if (a.runId !== summarised) byRun.set(a.runId, [...(byRun.get(a.runId) ?? []), a]);
  const open = (a: AttemptRecord) => a.status === 'pending' || a.status === 'running' || a.status === 'cancelled' || a.status === 'interrupted';
  return [...byRun].filter(([, runAttempts]) => runAttempts.some(open)).map(([runId, runAttempts]) => {
    const counts = new Map<string, number>();
    for (const a of runAttempts) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
    const solved = runAttempts.filter((a) => a.solved === true).length;
    const statuses = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
    return `solve run ${runId} did not finish: ${runAttempts.length} attempt(s) (${statuses}; ${solved} solved it), so it gave no solve rate; \`bugbench solve ${runAttempts[0]!.bugId}\` starts another`;
  });
}

export const command: CommandModule = {
  name: 'show',
  summary: 'one bug in full: record, checks, tests, reviews, diffs',
  usage: [
    'bugbench show <bug-id> [--json]',
  ],
  flags: FLAGS,
  run: showCommand,
};
