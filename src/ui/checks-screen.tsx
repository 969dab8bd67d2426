/**
 * The Checks screen: one bug's nine checks, stepped one at a time, each with
 * its command, time, verdict, reason, passed/failed counts and the tests that
 * changed state against the original run; its log; the solver attempts and
 * their rewards; the higher-order bugs made from failed attempts.
 */
import { Box, Text } from 'ink';
import { focusMark } from './focus.js';
import type { BugRecord } from '../store/records.js';
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

/** Why failed attempts made no higher-order bug: one line a reason, with the attempts that gave it. */
export function skippedLines(skipped: SkippedAttempt[]): string[] {
  const byReason = new Map<string, string[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), tagOf(s.attempt)]);
  const lines = [...byReason].map(([reason, tags]) => `  ${tags.join(' ')}: ${reason}`);
  // The offline solver repairs whole files, so on a bug of several files none of its failed attempts leaves a new state.
  if (skipped.some((s) => s.reason.startsWith('its patch only repaired whole files'))) {
    lines.unshift('  (the offline solver repairs whole files, so a bug of several files gets none)');
  }
  return lines;
}

function mark(line: CheckLine): string {
  return line.verdict === 'pending' ? ' ' : line.verdict === 'running' ? '…' : (VERDICT_MARK[line.verdict] ?? '?');
}

function detailLines(line: CheckLine | undefined): { text: string; dim?: boolean; color?: 'red' | 'green' }[] {
  if (!line) return [];
  if (line.verdict === 'pending' || line.verdict === 'running') return [{ text: line.verdict === 'running' ? `${line.name} is running…` : `${line.name} has not run yet: enter runs the next check`, dim: true }];
  const out: { text: string; dim?: boolean; color?: 'red' | 'green' }[] = [{ text: `${line.name}: ${line.reason}` }];
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
  const skipped = state.higher ? skippedLines(state.higher.skipped).slice(0, 4) : [];
  const higherRows = state.higher ? 1 + Math.min(state.higher.children.length, 3) + skipped.length : 0;
  const flaky = bug.check?.flaky ?? [];
  const flakyRows = flaky.length > 0 ? 1 : 0;
  const detailRows = Math.max(2, rows - 3 - lines.length - solveRows - higherRows - flakyRows - 1);
  const detail = log ? [{ text: `── log of ${state.log!.title} (esc closes)` }, ...log.map((text) => ({ text, dim: false }))] : detailLines(lines[state.cursor]);
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
          </Text>
          {attemptRows.map((row, i) => (
            <Text key={i} wrap="truncate-end">
              {row}
            </Text>
          ))}
        </>
      ) : null}
      {state.higher ? (
        <>
          <Text bold wrap="truncate-end">
            higher-order: {state.higher.children.length} bug(s){state.higher.busy ? ' (checking…)' : ''}
            {state.higher.skipped.length > 0 ? `, ${state.higher.skipped.length} attempt(s) make none:` : ''}
          </Text>
          {skipped.map((line, i) => (
            <Text key={`skip-${i}`} dimColor wrap="truncate-end">
              {line}
            </Text>
          ))}
          {state.higher.children.slice(-3).map((c) => (
            <Text key={c.id} wrap="truncate-end">
              {'  '}
              {focusMark(bug.id === c.id)} {tagOf(c.attempt)} ({c.solver}) → {c.id} {c.marks} {c.status}
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
