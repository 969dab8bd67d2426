/**
 * The Training screen's hook: the jobs of the store with their states kept
 * fresh while they run, the focused job's log tail following it, the
 * submission of the accepted bugs, and cancelling a job — all through the core.
 */
import type { Key } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../errors.js';
import type { WorkbenchCore } from '../pipeline/workbench-core.js';
import type { JobRecord } from '../store/records.js';
import { isTerminal, shownJobState, type JobState } from '../training/types.js';
import { initialTraining, reduceTraining, type TrainingState } from './training-state.js';
import { useLatestReducer } from './use-latest-reducer.js';

/** How often running jobs and the focused log are asked about. */
const POLL_MS = 1500;

export interface TrainingModel {
  state: TrainingState;
  jobs: JobRecord[];
  /** Accepted bugs of the workspace: what `n` submits. */
  accepted: number;
  focused: JobRecord | undefined;
  log: string[];
  onKey: (input: string, key: Key) => void;
  /** True while the command is being typed: every key is text then. */
  capturing: () => boolean;
}

export function useTraining(core: WorkbenchCore | undefined): TrainingModel {
  const [state, dispatch, latest] = useLatestReducer(reduceTraining, initialTraining);
  const [version, setVersion] = useState(0);
  const [log, setLog] = useState<string[]>([]);

  useEffect(() => {
    if (!core) return;
    return core.subscribe(() => setVersion((v) => v + 1));
  }, [core]);

  const jobs = useMemo(() => (core ? core.jobs() : []), [core, version]);
  const accepted = useMemo(() => (core ? core.bugs({ status: 'accepted' }).length : 0), [core, version]);
  const focused = jobs[Math.min(state.focus, jobs.length - 1)];
  const running = jobs.some((j) => !isTerminal(j.state as JobState));

  useEffect(() => {
    if (!core || !running) return;
    const timer = setInterval(() => void core.refreshJobs().catch(() => undefined), POLL_MS);
    return () => clearInterval(timer);
  }, [core, running]);

  // The focused job's log: read now, and again while the job runs.
  useEffect(() => {
    if (!core || !focused) return setLog([]);
    let stop = false;
    const read = () =>
      core
        .jobLog(focused.id, 16 * 1024)
        .then((lines) => !stop && setLog(lines))
        .catch((error: unknown) => !stop && setLog([`(no log: ${errorMessage(error)})`]));
    void read();
    const timer = isTerminal(focused.state as JobState) ? undefined : setInterval(() => void read(), POLL_MS);
    return () => {
      stop = true;
      if (timer) clearInterval(timer);
    };
  }, [core, focused?.id, focused?.state]);

  const submit = () => {
    const { form, busy } = latest();
    if (!core || !form || busy) return;
    dispatch({ type: 'busy', what: `exporting and submitting ${form.format} to ${form.engine}…` });
    core
      .submitTraining({ engine: form.engine, format: form.format, command: form.command.trim() || undefined })
      .then(({ job, created }) => {
        dispatch({ type: 'close-form' });
        dispatch({ type: 'focus', delta: -Infinity, count: jobs.length + 1 });
        dispatch({ type: 'message', text: `${job.id} ${created ? 'submitted' : 'was already submitted'}: ${job.bugCount} bug(s) as ${job.format}`, error: false });
      })
      // A refused submission keeps the form as it was typed, to be fixed.
      .catch((error: unknown) => dispatch({ type: 'message', text: errorMessage(error), error: true }));
  };

  const onKey = (input: string, key: Key) => {
    const current = latest();
    if (current.form) {
      const typing = current.form.field === 'command';
      if (key.escape) dispatch({ type: 'close-form' });
      else if (key.return) submit();
      else if (key.upArrow || key.tab) dispatch({ type: 'form-field', delta: key.upArrow || key.shift ? -1 : 1 });
      else if (key.downArrow) dispatch({ type: 'form-field', delta: 1 });
      else if (!typing && (key.leftArrow || key.rightArrow)) dispatch({ type: 'form-choice', delta: key.leftArrow ? -1 : 1 });
      else if (typing && (key.backspace || key.delete)) dispatch({ type: 'form-erase' });
      else if (typing && input && !key.ctrl && !key.meta) dispatch({ type: 'form-type', text: input });
      return;
    }
    // Cancelling a job takes a second x: a training job can hold hours of cluster time.
    if (current.confirmCancel) {
      if (input !== 'x' || !focused || focused.id !== current.confirmCancel) return dispatch({ type: 'ask-cancel', id: null });
    } else if (input === 'x' && focused && !isTerminal(focused.state as JobState)) return dispatch({ type: 'ask-cancel', id: focused.id });
    if (key.upArrow || input === 'k') return dispatch({ type: 'focus', delta: -1, count: jobs.length });
    if (key.downArrow || input === 'j') return dispatch({ type: 'focus', delta: 1, count: jobs.length });
    if (input === 'n') return dispatch({ type: 'open-form', engine: core?.defaultTrainingEngine() ?? 'local', command: '' });
    if (input === 'r' && core) {
      void core.refreshJobs().then(({ errors }) => errors.length > 0 && dispatch({ type: 'message', text: errors.join('; '), error: true }));
      return;
    }
    if (input === 'x' && core && focused) {
      dispatch({ type: 'busy', what: `cancelling ${focused.id}…` });
      core
        .cancelJob(focused.id)
        .then((job) => dispatch({ type: 'message', text: `${job.id} ${shownJobState(job)}`, error: false }))
        .catch((error: unknown) => dispatch({ type: 'message', text: errorMessage(error), error: true }));
    }
  };

  const capturing = () => latest().form !== null;
  return { state, jobs, accepted, focused, log, onKey, capturing };
}
