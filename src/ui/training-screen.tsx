/** The Training screen: jobs with their live state and dataset, the focused one's log tail, and the form that submits the accepted bugs. */
import { Box, Text } from 'ink';
import { shownJobState } from '../training/types.js';
import type { JobRecord } from '../store/records.js';
import { clip } from './line-fit.js';
import type { TrainingModel } from './use-training.js';

const STATE_COLOR: Record<string, string> = { succeeded: 'green', failed: 'red', cancelled: 'yellow', running: 'cyan', queued: 'white' };

function jobRow(job: JobRecord, width: number): string {
  const exit = job.exitCode === null ? '' : ` exit ${job.exitCode}`;
  const text = `${job.id.padEnd(12)} ${shownJobState(job).padEnd(10)} ${job.kind.padEnd(3)} ${job.format.padEnd(8)} ${String(job.bugCount).padStart(4)} bug(s) ${job.submittedAt.slice(5, 16).replace('T', ' ')}${exit}${job.reason ? ` · ${job.reason}` : ''}`;
  return clip(text, width);
}

/** At most this many rows of a message (a refused submission says what to fix, at length). */
const MESSAGE_ROWS = 4;

export function TrainingScreen({ model, rows, columns }: { model: TrainingModel; rows: number; columns: number }) {
  const { state, jobs, focused, log } = model;
  const form = state.form;
  const formRows = form ? 6 : 0;
  const message = state.busy ?? state.message?.text ?? '';
  // The message wraps; what it takes beyond its one row comes from the log.
  const messageRows = Math.min(MESSAGE_ROWS, Math.max(1, Math.ceil([...message].length / Math.max(1, columns))));
  const listRows = Math.max(1, Math.min(jobs.length, Math.floor((rows - 6 - formRows) / 3)));
  const at = Math.min(state.focus, Math.max(0, jobs.length - 1));
  const first = Math.min(Math.max(0, at - Math.floor(listRows / 2)), Math.max(0, jobs.length - listRows));
  const logRows = Math.max(1, rows - 4 - listRows - formRows - (focused ? 2 : 0) - (messageRows - 1));
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {jobs.length} training job(s)
        <Text dimColor> · n submits the accepted bugs · x cancels the focused job</Text>
      </Text>
      {jobs.length === 0 ? (
        <Text dimColor>{model.accepted > 0 ? `none yet: n submits the ${model.accepted} accepted bug(s)` : 'none yet: accept some bugs on Review (5), then press n'}</Text>
      ) : null}
      {jobs.slice(first, first + listRows).map((job, i) => (
        <Text key={job.id} inverse={first + i === at} color={STATE_COLOR[job.state]} wrap="truncate-end">
          {first + i === at ? '›' : ' '}
          {jobRow(job, columns - 1)}
        </Text>
      ))}
      {focused ? (
        <>
          <Text dimColor wrap="truncate-end">
            dataset {focused.dataset} ({focused.lines} line(s)) · engine {focused.engine}
            {focused.rawState ? ` (${focused.rawState})` : ''}
          </Text>
          <Text dimColor wrap="truncate-end">
            command {focused.command.split('\n')[0]}
            {focused.command.includes('\n') ? ' …' : ''}
          </Text>
        </>
      ) : null}
      {form ? (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text wrap="truncate-end">
            {form.field === 'format' ? '›' : ' '} format  <Text color="cyan">‹ {form.format} ›</Text>
          </Text>
          <Text wrap="truncate-end">
            {form.field === 'engine' ? '›' : ' '} engine  <Text color="cyan">‹ {form.engine} ›</Text>
          </Text>
          <Text wrap="truncate-end">
            {form.field === 'command' ? '›' : ' '} command {form.command === '' ? <Text dimColor>{form.format === 'harbor' ? '(dry run: a stand-in that checks every task folder)' : '(dry run: a stand-in trainer that reads every line)'}</Text> : form.command}
            {form.field === 'command' ? <Text inverse> </Text> : null}
          </Text>
          <Text dimColor wrap="truncate-end">
            enter submits · esc closes · ↑/↓ field · ←/→ format, engine
          </Text>
        </Box>
      ) : null}
      <Text dimColor wrap="truncate-end">
        {focused ? `── log of ${focused.id} (last lines)` : ''}
      </Text>
      {log.slice(-logRows).map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {clip(line, columns) || ' '}
        </Text>
      ))}
      {state.busy ? (
        <Text color="cyan" wrap="truncate-end">
          {state.busy}
        </Text>
      ) : state.message ? (
        <Box height={messageRows} overflow="hidden">
          <Text color={state.message.error ? 'red' : 'green'} wrap="wrap">
            {state.message.text}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
