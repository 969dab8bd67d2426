/**
 * The Checks screen: one bug's nine checks, stepped one at a time, each with
 * its command, time, verdict, reason, passed/failed counts and the tests that
 * changed state against the original run; its log; the solver attempts and
 * their rewards; the higher-order bugs made from failed attempts.
 */
import { Box, Text } from 'ink';
import { focusMark } from './focus.js';
import { wrap } from './line-fit.js';
import type { BugRecord } from '../store/records.js';
import { CHECK_NAMES } from '../bugs/check-types.js';
import { offlineSolverNote } from '../pipeline/higher-order.js';
import { allNine, type AttemptResult, type ChecksState, type CheckLine, type SkippedAttempt } from './checks-state.js';
import { VERDICT_MARK } from './review-lines.js';
import { Line } from './review-screen.js';
import { tagOf, type RolloutView } from './run-state.js';

const COLOR: Record<string, string | undefined> = { pass: 'green', fail: 'red', cancelled: 'yellow', running: 'cyan' };

/** Width of one attempt's cell in the solve grid. */
const CELL = 26;

/** One attempt as a cell: its tag and solver, then solved (+1) or not (−1, with how many tests fail), or where it is. */
export function attemptCell(tag: string, view: RolloutView, result: AttemptResult | undefined): string {
  const solver = (result?.solver ?? '').replace(/^offline\//, '');
  const where = result
    ? result.status === 'evaluated' || result.status === 'unsubmitted'
      ? result.solved
        ? '✓ +1'
        : `✗ −1 (${result.failing} fail)`
      : result.status
    : view.status === 'running'
      ? `step ${view.step}`
      : view.status === 'waiting'
        ? 'waiting'
        : 'judging…';
  const text = `${tag} ${solver ? `${solver} ` : ''}${where}`;
  return text.length >= CELL ? `${text.slice(0, CELL - 2)}… ` : text.padEnd(CELL);
}

/** A run's short id: the part its id ends with ("solve-20260101-000300-b1b1" → "b1b1"). */
function shortRunId(runId: string): string {
  return runId.split('-').at(-1) || runId;
}

/** The run a solver attempt belongs to ("solve-…-b1b1-a3" → "solve-…-b1b1"). */
function runOfAttempt(attemptId: string): string {
  return attemptId.slice(0, Math.max(0, attemptId.length - tagOf(attemptId).length - 1));
}

/** An attempt as the higher-order list names it: its tag, with its solve run's short id when several runs are listed. */
export function attemptLabel(attemptId: string, severalRuns: boolean): string {
  return severalRuns ? `${shortRunId(runOfAttempt(attemptId))}:${tagOf(attemptId)}` : tagOf(attemptId);
}

/** How many solve runs the attempts come from. */
export function solveRunCount(attemptIds: string[]): number {
  return new Set(attemptIds.map(runOfAttempt)).size;
}

/** A line of the higher-order list, and how many of the attempts that made no bug it names. */
interface ListLine {
  text: string;
  attempts: number;
}

/** Why failed attempts made no higher-order bug: one line a reason, with the attempts that gave it. */
export function skippedLines(skipped: SkippedAttempt[], severalRuns: boolean): ListLine[] {
  const byReason = new Map<string, string[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), attemptLabel(s.attempt, severalRuns)]);
  const lines = [...byReason].map(([reason, tags]) => ({ text: `  ${tags.join(' ')}: ${reason}`, attempts: tags.length }));
  const note = offlineSolverNote(skipped);
  if (note) lines.unshift({ text: `  (${note})`, attempts: 0 });
  return lines;
}

/** The list in `rows` rows: whole when it fits, else its head and a last line counting what is not shown. */
export function fittedList(lines: ListLine[], rows: number): string[] {
  if (lines.length <= rows) return lines.map((l) => l.text);
  if (rows <= 0) return [];
  const shown = lines.slice(0, rows - 1);
  const hidden = lines.slice(rows - 1);
  const attempts = hidden.reduce((n, l) => n + l.attempts, 0);
  return [...shown.map((l) => l.text), `  … ${hidden.length} more${attempts > 0 ? ` (${attempts} attempt(s))` : ''}`];
}

/**
 * Rows of the screen's parts at a given height: the title, the source line, the flaky line, the nine checks, the
 * solve grid, the higher-order heading and the message keep theirs; the higher-order list and the focused check's
 * detail share the rest, the list taking what it needs but one row. Nothing grows past `rows`.
 */
export function checksLayout(rows: number, parts: { flaky: boolean; solveRows: number; higher: boolean; listLines: number; message: boolean }) {
  const fixed = 2 + (parts.flaky ? 1 : 0) + CHECK_NAMES.length + parts.solveRows + (parts.higher ? 1 : 0) + (parts.message ? 1 : 0);
  const free = Math.max(0, rows - fixed);
  const listRows = Math.min(parts.listLines, Math.max(0, free - 1));
  return { listRows, detailRows: free - listRows };
}

function mark(line: CheckLine): string {
  return line.verdict === 'pending' ? ' ' : line.verdict === 'running' ? '…' : (VERDICT_MARK[line.verdict] ?? '?');
}

function detailLines(line: CheckLine | undefined, columns: number): { text: string; dim?: boolean; color?: 'red' | 'green' }[] {
  if (!line) return [];
  if (line.verdict === 'pending' || line.verdict === 'running') return [{ text: line.verdict === 'running' ? `${line.name} is running…` : `${line.name} has not run yet: enter runs the next check`, dim: true }];
  // The reason whole, the list above has only room for its start.
  const out: { text: string; dim?: boolean; color?: 'red' | 'green' }[] = wrap(`${line.name}: ${line.reason}`, columns, '  ').map((text) => ({ text }));
  if (line.runs.length === 0) out.push({ text: 'no test run: this check reads the artifact and the repository', dim: true });
  for (const run of line.runs) {
    out.push({ text: `run "${run.label}": exit ${run.exitCode}${run.timedOut ? ' (timed out)' : ''}, ${(run.durationMs / 1000).toFixed(1)} s, ${run.passed} passed, ${run.failed} failed` });
    out.push({ text: `  $ ${run.command}`, dim: true });
    if (run.changed.length > 0) {
      out.push({ text: `  ${run.changed.length} test(s) changed against the original run:` });
      for (const change of run.changed.slice(0, 6)) out.push({ text: `    ${change}`, color: change.endsWith('passed') ? 'green' : 'red' });
      if (run.changed.length > 6) out.push({ text: `    … ${run.changed.length - 6} more`, dim: true });
    }
  }
  return out;
}

export function ChecksScreen({ state, bug, log, rows, columns }: { state: ChecksState; bug: BugRecord | undefined; log: string[] | null; rows: number; columns: number }) {
  if (!bug) return <Text dimColor>No bug selected: pick one on Review (5), then come back here.</Text>;
  const lines = allNine(state.lines, state.running);
  const judged = state.lines.length;
  const lineage = bug.order > 1 ? `: ${bug.parentId} → ${tagOf(bug.attemptId ?? '')} → this` : '';
  const source =
    state.source === 'session'
      ? `stepping: ${judged} of 9 judged${state.busy ? '' : ' (done)'}`
      : state.source === 'report'
        ? `last report (${bug.check?.at.replace('T', ' ').slice(0, 19) ?? '?'}); enter steps a new check, a runs them all`
        : 'not checked yet: enter runs the first check, a runs them all';
  const solve = state.solve;
  // Every attempt in a grid of cells, as many to a row as the width takes.
  const perRow = Math.max(1, Math.floor(columns / CELL));
  const attemptCells = solve ? solve.view.tags.map((tag) => attemptCell(tag, solve.view.rollouts[tag]!, solve.results[tag])) : [];
  const attemptRows = Array.from({ length: Math.ceil(attemptCells.length / perRow) }, (_, r) => attemptCells.slice(r * perRow, (r + 1) * perRow).join(''));
  const solveRows = solve ? 1 + attemptRows.length : 0;
  const higher = state.higher;
  // Attempts of several solve runs are named with their run; the list puts the bugs made first (o opens them), then why the others made none.
  const runs = higher ? solveRunCount([...higher.skipped.map((s) => s.attempt), ...higher.children.map((c) => c.attempt)]) : 0;
  const childLines = (higher?.children ?? []).map((c) => ({ text: `  ${focusMark(bug.id === c.id)} ${attemptLabel(c.attempt, runs > 1)} (${c.solver}) → ${c.id} ${c.marks} ${c.status}`, attempts: 0 }));
  const listLines = higher ? [...childLines, ...skippedLines(higher.skipped, runs > 1)] : [];
  const flaky = bug.check?.flaky ?? [];
  const flakyRows = flaky.length > 0 ? 1 : 0;
  const { listRows, detailRows } = checksLayout(rows, { flaky: flakyRows > 0, solveRows, higher: higher !== null, listLines: listLines.length, message: state.message !== null });
  const list = fittedList(listLines, listRows);
  const detail = log ? [{ text: `── log of ${state.log!.title} (esc closes)` }, ...log.map((text) => ({ text, dim: false }))] : detailLines(lines[state.cursor], columns);
  const judgedAttempts = solve ? Object.keys(solve.results).length : 0;

  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{bug.id}</Text> {bug.status.toUpperCase()} · order {bug.order}
        {lineage}
      </Text>
      <Text dimColor wrap="truncate-end">
        {source}
      </Text>
      {flakyRows > 0 ? (
        <Text color="yellow" wrap="truncate-end">
          flaky, dropped from PASS_TO_PASS: {flaky.map((f) => `${f.id} (${f.flips} flip${f.flips === 1 ? '' : 's'})`).join(', ')}
        </Text>
      ) : null}
      {lines.map((line, i) => (
        <Text key={line.name} inverse={i === state.cursor} color={COLOR[line.verdict]} dimColor={line.verdict === 'pending' || line.verdict === 'skipped'} wrap="truncate-end">
          {focusMark(i === state.cursor)} {mark(line)} {line.name.padEnd(17)} {line.verdict === 'pending' || line.verdict === 'running' ? '' : `${(line.durationMs / 1000).toFixed(1).padStart(5)} s  ${line.reason}`}
        </Text>
      ))}
      {detail.slice(state.scroll, state.scroll + detailRows).map((l, i) => (
        <Line key={i} line={l} width={columns} />
      ))}
      {solve ? (
        <>
          <Text bold wrap="truncate-end">
            solving {judgedAttempts}/{solve.view.tags.length}
            {solve.solveRate !== null
              ? ` · solve rate ${solve.solveRate.toFixed(3)} · injection reward ${solve.injectReward!.toFixed(3)} · ${Object.values(solve.results).filter((r) => r.solved).length} solved`
              : ''}
            {solve.view.runId ? ` · run ${shortRunId(solve.view.runId)}` : ''}
          </Text>
          {attemptRows.map((row, i) => (
            <Text key={i} wrap="truncate-end">
              {row}
            </Text>
          ))}
        </>
      ) : null}
      {higher ? (
        <>
          <Text bold wrap="truncate-end">
            higher-order: {higher.children.length} bug(s){higher.busy ? ' (checking…)' : ''}
            {higher.skipped.length > 0 ? `, ${higher.skipped.length} attempt(s)${runs > 1 ? ` of ${runs} solve runs` : ''} make none:` : ''}
          </Text>
          {list.map((line, i) => (
            <Text key={i} dimColor={i >= childLines.length} wrap="truncate-end">
              {line}
            </Text>
          ))}
        </>
      ) : null}
      {state.message ? (
        <Text color={state.message.error ? 'red' : 'green'} wrap="truncate-end">
          {state.message.text}
        </Text>
      ) : null}
    </Box>
  );
}
