/**
 * The Rollouts screen: one run (live, or any past one) — its rollouts with
 * state, step, time, spend and the verdicts of their checks, and the focused
 * rollout's whole transcript, wrapped to the terminal, scrollable, its long
 * tool outputs folded until unfolded.
 */
import { Box, Text } from 'ink';
import { focusMark } from './focus.js';
import { clip, columnsOf, fit } from './line-fit.js';
import { shortImageName } from '../sandbox/image-names.js';
import { runProgress, type RolloutView, type RunView } from './run-state.js';
import { transcriptRows, type Row } from './transcript.js';
import type { RolloutsModel } from './use-rollouts.js';

const VERDICT_MARKS: Record<string, string> = { pass: '✓', fail: '✗', skipped: '·', cancelled: '○' };
const ROW_COLOR: Record<string, string | undefined> = { tool: 'cyan', info: 'yellow', fold: 'magenta' };

/** Rows of the screen's parts at a given height: the rollout list gets what the transcript does not need. */
export function rolloutsLayout(rows: number, rollouts: number, focus: number, notes = 0) {
  const fixed = 3 + notes; // run line, window note, transcript title, and the lines below (a note, the run's error)
  const listRows = Math.max(1, Math.min(rollouts, Math.floor((rows - fixed) / 3)));
  const first = Math.min(Math.max(0, focus - Math.floor(listRows / 2)), Math.max(0, rollouts - listRows));
  const transcriptRows = Math.max(2, rows - fixed - listRows);
  return { first, listRows, transcriptRows };
}

function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}`;
}

function statusText(view: RolloutView, runDone: boolean): string {
  if (view.status === 'waiting') return runDone ? 'not started' : 'waiting';
  if (view.status === 'running') return `step ${view.step}`;
  if (view.status === 'submitted' && !view.bug) return view.attempt ? (view.attempt.solved ? 'solved' : 'not solved') : 'checking';
  if (view.status === 'no-bug') return `no bug ${view.step}`;
  return `${view.status} ${view.step}`;
}

/** One rollout in one line of `width` columns. */
export function rolloutRow(view: RolloutView, runDone: boolean, policy: string, width: number, now = Date.now()): string {
  const elapsed = view.durationMs ?? (view.startedAt !== null ? now - view.startedAt : 0);
  // The offline policy costs nothing and its token counts are estimates: neither is shown. A model priced at 0 shows its tokens alone (~: counted by bugbench).
  const tokens = `${view.estimated ? '~' : ''}${(view.tokens / 1000).toFixed(1)}k`;
  const spend = policy === 'offline' ? '' : view.costUsd > 0 ? ` $${view.costUsd.toFixed(3)} ${tokens}` : ` ${tokens} tok`;
  const checks = view.checks.map((c) => VERDICT_MARKS[c.verdict] ?? '?').join('');
  const verdict = view.bug ? (view.bug.valid ? (view.bug.status === 'duplicate' ? 'DUP' : 'VALID') : view.bug.status === 'cancelled' ? 'CANCELLED' : `✗ ${view.bug.failedCheck}`) : view.checking ? `${view.checking}…` : '';
  const head = `${view.tag.padEnd(4)} ${fit(statusText(view, runDone), 13)} ${clock(elapsed).padStart(5)}${spend} ${checks.padEnd(9)} ${verdict}`;
  const action = view.status === 'running' ? view.lastAction : (view.bug?.id ?? view.lastAction);
  return fit(`${head}  ${action}`, width);
}

function RowLine({ row, width }: { row: Row; width: number }) {
  return (
    <Text color={row.error ? 'red' : ROW_COLOR[row.kind]} dimColor={row.kind === 'output'} wrap="truncate-end">
      {fit(row.text, width).trimEnd() || ' '}
    </Text>
  );
}

export interface HeaderParts {
  /** "live: ", "resumable (R): ", a cluster job's name. */
  prefix: string;
  /** The prefix where room is short ("resumable: " without its key, which the footer shows). */
  shortPrefix?: string;
  /** The strategy and the image. */
  what: string;
  /** The same where room is short, the image by its short name (image-names.ts). */
  shortWhat?: string;
  counts: string;
  id: string;
  /** Which of how many runs is shown. */
  run: number;
  runs: number;
}

/**
 * The run's line in `width` columns, bold head and dim tail. The run id stays
 * whole — `inject --resume` and `replay` need it: the [/] hint loses its
 * words first, then the strategy and image are cut (or left out when little
 * of them would show), then the counts.
 */
export function runHeader(parts: HeaderParts, width: number): { head: string; tail: string } {
  const id = parts.id ? ` (${parts.id})` : '';
  const browse = (long: boolean) => (parts.runs > 1 ? (long ? ` · [/] run ${parts.run} of ${parts.runs}` : ` · [/] ${parts.run}/${parts.runs}`) : '');
  const head = (what: string) => `${parts.prefix}${what}: ${parts.counts}`;
  if (columnsOf(head(parts.what) + id + browse(true)) <= width) return { head: head(parts.what), tail: id + browse(true) };
  const tail = id + browse(false);
  const room = width - columnsOf(tail) - columnsOf(head(''));
  if (parts.shortWhat !== undefined && columnsOf(parts.shortWhat) <= room) return { head: head(parts.shortWhat), tail };
  if (room >= 12) return { head: head(clip(parts.shortWhat ?? parts.what, room)), tail };
  // No room for a useful part of the strategy and image: the counts go without them, cut if they must be.
  const rest = width - columnsOf(tail);
  const prefix = columnsOf(parts.prefix + parts.counts) > rest && parts.shortPrefix !== undefined ? parts.shortPrefix : parts.prefix;
  return rest > 0 ? { head: clip(`${prefix}${parts.counts}`, rest), tail } : { head: '', tail: clip(tail, width) };
}

/** The header's prefix, long and short: whether the run is live, can be resumed, runs on a cluster. */
function headerPrefix(live: boolean, resumable: boolean | undefined, cluster: string | undefined): { prefix: string; shortPrefix: string } {
  const at = cluster ? `${cluster}: ` : '';
  const now = live ? 'live: ' : '';
  return { prefix: `${now}${resumable ? 'resumable (R): ' : ''}${at}`, shortPrefix: `${now}${resumable ? 'resumable: ' : ''}${at}` };
}

/** Lines under the transcript: what `c` did, why the run stopped. */
export function noteLines(model: RolloutsModel): number {
  return (model.note ? 1 : 0) + (model.run?.error ? 1 : 0);
}

export function RolloutsScreen({ model, rows, columns }: { model: RolloutsModel; rows: number; columns: number }) {
  const { run, state } = model;
  if (!run) return <Text dimColor>No run yet: set one up on Run (2).</Text>;
  const progress = runProgress(run);
  const focus = Math.min(state.focus, run.tags.length - 1);
  const { first, listRows, transcriptRows: height } = rolloutsLayout(rows, run.tags.length, focus, noteLines(model));
  const visible = run.tags.slice(first, first + listRows);
  const tag = run.tags[focus]!;
  const all = transcriptRows(model.transcript, columns, state.unfold);
  const end = Math.max(0, all.length - state.scroll);
  const shown = all.slice(Math.max(0, end - height), end);
  const outcome = progress.attempts > 0 ? `${progress.solved} solved` : `${progress.valid} valid${progress.duplicates ? `, ${progress.duplicates} duplicate` : ''}`;
  const counts = `${progress.done}/${progress.total} done${progress.cancelled ? `, ${progress.cancelled} cancelled` : ''}${progress.checking ? `, ${progress.checking} checking` : ''}${run.strategy === 'featadd' ? `, ${progress.broke} feature(s) broke something` : ''}, ${outcome}`;
  const replay = state.replay?.tag === tag && state.replay.runId === run.runId ? ` · replaying at ${state.replay.speed}×${state.replay.done ? ' (done)' : ''}` : '';
  const scrolled = state.scroll > 0 ? ` · ${state.scroll} rows up (G: end)` : '';
  const header = runHeader(
    { ...headerPrefix(model.live, run.resumable, run.cluster), what: `${run.strategy} on ${run.image}`, shortWhat: `${run.strategy} on ${shortImageName(run.image)}`, counts, id: run.runId ?? '', run: model.runIndex + 1, runs: model.runs.length },
    columns,
  );

  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {header.head}
        <Text dimColor>{header.tail}</Text>
      </Text>
      {visible.map((t, i) => (
        <Text key={t} inverse={first + i === focus} wrap="truncate-end">
          {focusMark(first + i === focus)}
          {rolloutRow(run.rollouts[t]!, run.done, run.policy, columns - 1)}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {run.tags.length > listRows ? `rollouts ${first + 1}–${first + visible.length} of ${run.tags.length} · ` : ''}
        {tag} transcript{state.unfold ? ' (unfolded)' : ''}
        {run.rollouts[tag]!.where ? ` · ${run.rollouts[tag]!.where}` : ''}
        {replay}
        {scrolled}
      </Text>
      {shown.length === 0 ? <Text dimColor>nothing yet</Text> : shown.map((row, i) => <RowLine key={i} row={row} width={columns} />)}
      {model.note ? (
        <Text color="yellow" wrap="truncate-end">
          {model.note}
        </Text>
      ) : null}
      {run.error ? (
        <Text color="red" wrap="truncate-end">
          The run stopped: {run.error}
        </Text>
      ) : null}
    </Box>
  );
}
