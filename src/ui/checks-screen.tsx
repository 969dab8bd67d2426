/**
 * The Checks screen: one bug's nine checks, stepped one at a time, each with
 * its command, time, verdict, reason, passed/failed counts and the tests that
 * changed state against the original run; its log; the solver attempts and
 * their rewards; the higher-order bugs made from failed attempts.
 */
import { Box, Text } from 'ink';
import type { BugRecord } from '../store/records.js';
import { allNine, type ChecksState, type CheckLine } from './checks-state.js';
import { VERDICT_MARK } from './review-lines.js';
import { Line } from './review-screen.js';
import { tagOf } from './run-state.js';

const COLOR: Record<string, string | undefined> = { pass: 'green', fail: 'red', cancelled: 'yellow', running: 'cyan' };

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
  const solveRows = solve ? 1 + Math.min(solve.view.tags.length, 4) : 0;
  const higherRows = state.higher ? 1 + Math.min(state.higher.children.length, 3) : 0;
  const detailRows = Math.max(2, rows - 3 - lines.length - solveRows - higherRows - 1);
  const detail = log ? [{ text: `── log of ${state.log!.title} (esc closes)` }, ...log.map((text) => ({ text, dim: false }))] : detailLines(lines[state.cursor]);
  const attempts = solve ? solve.view.tags.map((tag) => solve.view.rollouts[tag]!) : [];
  const firstAttempt = Math.max(0, Math.min(attempts.length - 4, attempts.findIndex((a) => a.status === 'running')));

  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{bug.id}</Text> {bug.status.toUpperCase()} · order {bug.order}
        {lineage}
      </Text>
      <Text dimColor wrap="truncate-end">
        {source}
      </Text>
      {lines.map((line, i) => (
        <Text key={line.name} inverse={i === state.cursor} color={COLOR[line.verdict]} dimColor={line.verdict === 'pending' || line.verdict === 'skipped'} wrap="truncate-end">
          {mark(line)} {line.name.padEnd(17)} {line.verdict === 'pending' || line.verdict === 'running' ? '' : `${(line.durationMs / 1000).toFixed(1).padStart(5)} s  ${line.reason}`}
        </Text>
      ))}
      {detail.slice(state.scroll, state.scroll + detailRows).map((l, i) => (
        <Line key={i} line={l} width={columns} />
      ))}
      {solve ? (
        <>
          <Text bold wrap="truncate-end">
            solving {attempts.filter((a) => !['waiting', 'running'].includes(a.status)).length}/{attempts.length}
            {solve.solveRate !== null ? ` · solve rate ${solve.solveRate.toFixed(3)} · injection reward ${solve.injectReward!.toFixed(3)}` : ''} · solver rewards {solve.rewards || '—'}
          </Text>
          {attempts.slice(firstAttempt, firstAttempt + 4).map((a) => (
            <Text key={a.tag} dimColor={a.status === 'waiting'} wrap="truncate-end">
              {'  '}
              {a.tag.padEnd(4)} {a.status === 'running' ? `step ${a.step}` : a.status.padEnd(10)} {a.lastAction}
            </Text>
          ))}
        </>
      ) : null}
      {state.higher ? (
        <>
          <Text bold wrap="truncate-end">
            higher-order: {state.higher.children.length} bug(s){state.higher.busy ? ' (checking…)' : ''}
            {state.higher.skipped ? `, ${state.higher.skipped} attempt(s) make none` : ''}
          </Text>
          {state.higher.children.slice(-3).map((c) => (
            <Text key={c.id} wrap="truncate-end">
              {'  '}
              {bug.id === c.id ? '›' : ' '} {tagOf(c.attempt)} ({c.solver}) → {c.id} {c.marks} {c.status}
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
