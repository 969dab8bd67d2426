/** A running injection: one line per rollout, and the live transcript of the focused one. */
import { Box, Text } from 'ink';
import type { RolloutView, RunView } from './run-state.js';

const VERDICT_MARKS: Record<string, string> = { pass: '✓', fail: '✗', skipped: '·' };

function statusText(view: RolloutView, runDone: boolean): string {
  switch (view.status) {
    case 'waiting':
      return runDone ? 'not started' : 'waiting';
    case 'running':
      return `step ${view.step}`;
    default:
      return `${view.status} (${view.step} steps)`;
  }
}

function RolloutLine({ view, focused, runDone }: { view: RolloutView; focused: boolean; runDone: boolean }) {
  const checks = view.checks.map((c) => VERDICT_MARKS[c.verdict] ?? '?').join('');
  const verdict = view.bug ? (view.bug.valid ? 'VALID' : `INVALID: ${view.bug.failedCheck}`) : view.checking ? `checking ${view.checking}…` : '';
  return (
    <Text inverse={focused}>
      {focused ? '›' : ' '} {view.tag.padEnd(4)} {statusText(view, runDone).padEnd(22)} ${view.costUsd.toFixed(4)} {String(view.tokens).padStart(7)} tok{' '}
      <Text color={view.bug ? (view.bug.valid ? 'green' : 'red') : undefined}>
        {checks} {verdict}
      </Text>{' '}
      <Text dimColor>{view.status === 'running' ? view.lastAction.slice(0, 50) : (view.bug?.id ?? '')}</Text>
    </Text>
  );
}

/** Rows the live area may use: Ink redraws the whole screen once its output is taller than the terminal. */
export function layout(rows: number, rollouts: number, focus: number) {
  const fixed = 10; // title, margins, run header (may wrap), window note, transcript border and label, footer
  const listRows = Math.max(1, Math.min(rollouts, Math.floor((rows - fixed) / 2)));
  const first = Math.min(Math.max(0, focus - Math.floor(listRows / 2)), Math.max(0, rollouts - listRows));
  const transcriptRows = Math.max(2, Math.min(12, rows - fixed - listRows));
  return { first, listRows, transcriptRows };
}

export function RunScreen({ run, rows = 40 }: { run: RunView; rows?: number }) {
  const focused = run.rollouts[run.tags[run.focus]!]!;
  const { first, listRows, transcriptRows } = layout(rows, run.tags.length, run.focus);
  const visible = run.tags.slice(first, first + listRows);
  const finished = run.tags.filter((t) => !['waiting', 'running'].includes(run.rollouts[t]!.status)).length;
  const valid = run.tags.filter((t) => run.rollouts[t]!.bug?.valid).length;
  // FeatAdd's yield: features that broke something are the bugs it made.
  const broke = run.strategy === 'featadd' ? `, ${run.tags.filter((t) => run.rollouts[t]!.bug).length} feature(s) broke something` : '';
  return (
    <Box flexDirection="column">
      <Text bold>
        Injection on {run.image} — {run.strategy}, {run.policy}: {finished}/{run.tags.length} done{broke}, {valid} valid
        {run.runId ? <Text dimColor> ({run.runId})</Text> : null}
      </Text>
      {visible.map((tag, i) => (
        <RolloutLine key={tag} view={run.rollouts[tag]!} focused={first + i === run.focus} runDone={run.done} />
      ))}
      {run.tags.length > listRows ? (
        <Text dimColor>
          rollouts {first + 1}–{first + visible.length} of {run.tags.length}
        </Text>
      ) : null}
      <Box flexDirection="column" marginTop={1} borderStyle="single" paddingX={1}>
        <Text dimColor>{focused.tag} transcript</Text>
        {focused.transcript.length === 0 ? <Text dimColor>nothing yet</Text> : null}
        {focused.transcript.slice(-transcriptRows).map((line, i) => (
          <Text
            key={i}
            wrap="truncate-end"
            color={line.kind === 'tool' ? 'cyan' : line.kind === 'info' ? 'yellow' : undefined}
            dimColor={line.kind === 'output'}
          >
            {line.kind === 'output' ? '    ' : ''}
            {line.text}
          </Text>
        ))}
      </Box>
      {run.error ? <Text color="red">The run stopped: {run.error}</Text> : null}
    </Box>
  );
}
