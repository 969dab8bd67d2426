/**
 * The Rollouts screen's hook: the runs to show (the live one and every past
 * run in the store), the focused rollout's transcript (live, read back from
 * its trajectory, or replayed at speed), and what its keys do.
 */
import type { Key } from 'ink';
import { useEffect, useMemo, useRef, useState } from 'react';
import { EventStream } from '../agent/events.js';
import { replay } from '../agent/trajectory.js';
import { errorMessage } from '../errors.js';
import type { WorkbenchCore } from '../pipeline/workbench-core.js';
import type { RunRecord } from '../store/records.js';
import { batcher } from './batcher.js';
import { initialRollouts, reduceRollouts, type RolloutsState } from './rollouts-state.js';
import type { RunView, TranscriptLine } from './run-state.js';
import { refoldedScroll, transcriptRows } from './transcript.js';
import { storedRunView, storedTranscript } from './stored-run.js';
import { useLatestReducer } from './use-latest-reducer.js';

export const REPLAY_SPEED = 10;

export interface RolloutsModel {
  state: RolloutsState;
  runs: RunRecord[];
  /** The run shown, and where it stands in the list. */
  run: RunView | undefined;
  runIndex: number;
  live: boolean;
  transcript: TranscriptLine[];
  /** What the last key did when it is not in view otherwise: `c`'s question, cancelling a cluster run. */
  note: string | null;
  /** Handles a key; the transcript's height and width are needed to scroll by pages and keep the place on `f`. */
  onKey: (input: string, key: Key, pageRows: number, width: number) => void;
}

/** What the screen's keys ask of the workbench: open a bug in Review, cancel the live run, resume a stored one. */
export interface RolloutsActions {
  openBug: (id: string) => void;
  cancelLive: () => void;
  /** Resumes the run, or says why it cannot now. */
  resume: (runId: string) => string | undefined;
}

export function useRollouts(core: WorkbenchCore | undefined, liveRun: RunView | undefined, actions: RolloutsActions): RolloutsModel {
  const { openBug, cancelLive } = actions;
  const [state, dispatch, latest] = useLatestReducer(reduceRollouts, initialRollouts);
  const [version, setVersion] = useState(0);
  const replaying = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    if (!core) return;
    return core.subscribe(() => setVersion((v) => v + 1));
  }, [core]);

  const runs = useMemo(() => (core ? core.runs() : []), [core, version]);
  // The live run until it has a record, then the run its record names; else the one picked, else the newest.
  const pickedId = state.runId ?? liveRun?.runId ?? runs[0]?.id ?? null;
  const record = runs.find((r) => r.id === pickedId);
  // Once the live run has ended, its record is shown, as a workbench started afresh shows it: a run cancelled
  // or interrupted is then marked resumable and R takes it (a run that failed before it had a record stays as it was seen).
  const liveView = liveRun !== undefined && (state.runId === null || state.runId === liveRun.runId) && !(liveRun.done && record !== undefined && record.id === liveRun.runId);
  // Whether the run shown is going on here now: c cancels it, R does not apply.
  const live = liveView && !liveRun!.done;
  const run = useMemo(() => (liveView ? liveRun : core && record ? storedRunView(core, record) : undefined), [liveView, liveRun, core, record, version]);
  const runIndex = Math.max(0, runs.findIndex((r) => r.id === (run?.runId ?? pickedId)));
  const tag = run?.tags[Math.min(state.focus, run.tags.length - 1)];
  const view = tag ? run?.rollouts[tag] : undefined;

  // While something runs, the elapsed times move on (and a run of another process, e.g. on a cluster, is read on).
  const [ticks, tick] = useState(0);
  const running = run ? run.tags.some((t) => run.rollouts[t]!.status === 'running') : false;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [running]);

  const transcript = useMemo(() => {
    if (state.replay && state.replay.runId === run?.runId && state.replay.tag === tag) return state.replay.view.transcript;
    if (liveView || !core || !run?.runId || !tag) return view?.transcript ?? [];
    const rollout = core.rollout(`${run.runId}-${tag}`);
    return rollout ? storedTranscript(core, rollout) : [];
  }, [state.replay, tag, liveView, core, run, view, version, ticks]);

  useEffect(() => () => replaying.current?.abort(), []);
  // A new live run is shown as it starts, whatever past run was browsed to before.
  useEffect(() => {
    if (liveRun) dispatch({ type: 'show-run', runId: null });
  }, [liveRun?.serial]);
  // A replay belongs to its run: showing another run stops it.
  const shownRun = run?.runId;
  useEffect(() => {
    if (latest().replay && latest().replay!.runId !== shownRun) {
      replaying.current?.abort();
      dispatch({ type: 'replay-stop' });
    }
  }, [shownRun]);
  // What `c` did to a cluster run, until another run is shown.
  const [note, setNote] = useState<string | null>(null);
  // `c` asks first, as q and Training's x do: a second c cancels, any other key keeps the run going.
  const confirming = useRef(false);
  // A note that only answers the last key (enter on a rollout with no bug) goes with the next one.
  const hint = useRef(false);
  useEffect(() => {
    setNote(null);
    confirming.current = false;
    hint.current = false;
  }, [record?.id, live]);

  const startReplay = () => {
    if (!core || !run?.runId || !tag || view?.status === 'running' || view?.status === 'waiting') return;
    const trajectory = core.trajectory(`${run.runId}-${tag}`);
    if (!trajectory) return;
    replaying.current?.abort();
    const controller = new AbortController();
    replaying.current = controller;
    dispatch({ type: 'replay-start', runId: run.runId, tag, speed: REPLAY_SPEED });
    const stream = new EventStream();
    const events = batcher<Parameters<typeof stream.forward>[0]>((batch) => {
      if (!controller.signal.aborted) for (const event of batch) dispatch({ type: 'replay-event', event });
    });
    stream.subscribe((event) => events.push(event));
    void replay(trajectory, stream, REPLAY_SPEED, controller.signal).then(() => {
      events.flush();
      if (!controller.signal.aborted) dispatch({ type: 'replay-done' });
    });
  };

  const cancelCluster = (cluster: NonNullable<RunRecord['cluster']>, runId: string) => {
    setNote(`cancelling Slurm job ${cluster.jobId}…`);
    void core!.cancelClusterRun(runId).then(
      () => setNote(`cancelled Slurm job ${cluster.jobId}; its tasks stop their rollouts`),
      (error: unknown) => setNote(`could not cancel: ${errorMessage(error)}`),
    );
  };
  const cancellable = live || Boolean(core && record?.cluster && record.status === 'running');

  const onKey = (input: string, key: Key, pageRows: number, width: number) => {
    if (hint.current) {
      hint.current = false;
      setNote(null);
    }
    if (confirming.current) {
      confirming.current = false;
      if (input !== 'c' || !cancellable) return setNote(null);
      setNote(null);
      if (live) return cancelLive();
      return cancelCluster(record!.cluster!, record!.id);
    }
    if (input === 'c' && cancellable) {
      confirming.current = true;
      const what = live ? 'the live run (its containers are removed; what it made is kept)' : `Slurm job ${record!.cluster!.jobId}`;
      return setNote(`c again cancels ${what}; any other key keeps it running`);
    }
    // The footer offers c and R whatever the run: on one they do not apply to, say why instead of nothing.
    if ((input === 'c' && !cancellable) || (input === 'R' && (live || !run?.resumable))) {
      if (!record) return;
      hint.current = true;
      if (live || record.status === 'running') {
        return setNote(input === 'R' ? `run ${record.id} is going: R resumes a run once it was interrupted or cancelled` : `run ${record.id} is going in another process: cancel it there`);
      }
      return setNote(`run ${record.id} has ended (${record.status}): there is nothing to ${input === 'c' ? 'cancel' : 'resume'}`);
    }
    // R resumes the run shown when it was interrupted or cancelled, where it ran (here, or as a new Slurm job array).
    if (input === 'R' && record) {
      const why = actions.resume(record.id);
      if (why) {
        hint.current = true;
        setNote(why);
      }
      return;
    }
    const current = latest();
    const count = run?.tags.length ?? 0;
    const max = Math.max(0, transcriptRows(transcript, width, current.unfold).length - pageRows);
    if (key.upArrow || input === 'k') return dispatch({ type: 'focus', delta: -1, count });
    if (key.downArrow || input === 'j') return dispatch({ type: 'focus', delta: 1, count });
    if (key.pageUp) return dispatch({ type: 'scroll', delta: pageRows, max });
    if (key.pageDown) return dispatch({ type: 'scroll', delta: -pageRows, max });
    if (input === 'g' || key.home) return dispatch({ type: 'scroll', delta: Infinity, max });
    if (input === 'G' || key.end) return dispatch({ type: 'scroll', delta: -Infinity, max });
    if (input === 'f') return dispatch({ type: 'toggle-fold', scroll: refoldedScroll(transcript, width, current.unfold, current.scroll, pageRows) });
    if (input === 'p') {
      if (current.replay) {
        replaying.current?.abort();
        return dispatch({ type: 'replay-stop' });
      }
      return startReplay();
    }
    if (input === '[' || input === ']') {
      const next = runs[runIndex + (input === ']' ? 1 : -1)];
      if (next) dispatch({ type: 'show-run', runId: next.id });
      return;
    }
    if (key.return) {
      // A rollout's own bug; a solver attempt's: the bug it was solving.
      const bugId = view?.bug?.id ?? (core && run?.runId && tag ? core.attempt(`${run.runId}-${tag}`)?.bugId : undefined);
      if (bugId) return openBug(bugId);
      if (!tag) return;
      hint.current = true;
      setNote(view && ['waiting', 'running', 'submitted'].includes(view.status) ? `${tag} has no bug yet` : `${tag} made no bug`);
    }
  };

  return { state, runs, run, runIndex, live, transcript, note, onKey };
}
