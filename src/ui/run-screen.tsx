/** A running injection: one line per rollout, and the live transcript of the focused one. */
import { Box, Text } from 'ink';
import type { RolloutView, RunView } from './run-state.js';

const VERDICT_MARKS: Record<string, string> = { pass: '✓', fail: '✗', skipped: '·' };

function statusText(view: RolloutView): string {
  switch (view.status) {
    case 'waiting':
      return 'waiting';
    case 'running':
      return `step ${view.step}`;
    default:
      return `${view.status} (${view.step} steps)`;
  }
}

function RolloutLine({ view, focused }: { view: RolloutView; focused: boolean }) {
  const checks = view.checks.map((c) => VERDICT_MARKS[c.verdict] ?? '?').join('');
  const verdict = view.bug ? (view.bug.valid ? 'VALID' : `INVALID: ${view.bug.failedCheck}`) : view.checking ? `checking ${view.checking}…` : '';
  return (
    <Text inverse={focused}>
      {focused ? '›' : ' '} {view.tag.padEnd(4)} {statusText(view).padEnd(22)} ${view.costUsd.toFixed(4)} {String(view.tokens).padStart(7)} tok{' '}
      <Text color={view.bug ? (view.bug.valid ? 'green' : 'red') : undefined}>
        {checks} {verdict}
      </Text>{' '}
      <Text dimColor>{view.status === 'running' ? view.lastAction.slice(0, 50) : (view.bug?.id ?? '')}</Text>
    </Text>
  );
}

export function RunScreen({ run }: { run: RunView }) {
  const focused = run.rollouts[run.tags[run.focus]!]!;
  const finished = run.tags.filter((t) => !['waiting', 'running'].includes(run.rollouts[t]!.status)).length;
  const valid = run.tags.filter((t) => run.rollouts[t]!.bug?.valid).length;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>
        Injection on {run.image} — {run.strategy}, {run.policy}: {finished}/{run.tags.length} done, {valid} valid
        {run.runId ? <Text dimColor> ({run.runId})</Text> : null}
      </Text>
      {run.tags.map((tag, i) => (
        <RolloutLine key={tag} view={run.rollouts[tag]!} focused={i === run.focus} />
      ))}
      <Box flexDirection="column" marginTop={1} borderStyle="single" paddingX={1}>
        <Text dimColor>{focused.tag} transcript</Text>
        {focused.transcript.length === 0 ? <Text dimColor>nothing yet</Text> : null}
        {focused.transcript.map((line, i) => (
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
      <Text dimColor>↑/↓ rollout · {run.done ? 'esc back · q quit' : 'c cancel'}</Text>
    </Box>
  );
}
