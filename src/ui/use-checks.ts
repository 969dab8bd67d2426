/**
 * The Checks screen's hook: shows the bug's last check report, steps a new
 * check session one check at a time (enter) or through the rest (a), records
 * its verdict when it ends, runs solver attempts (s) and builds higher-order
 * bugs (h) — all through the core, each tracked as work the workbench can
 * cancel.
 */
import type { Key } from 'ink';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../errors.js';
import type { StoredCheckSession } from '../pipeline/bug-checks.js';
import { DEFAULT_SOLVE } from '../pipeline/solve.js';
import type { WorkbenchCore } from '../pipeline/workbench-core.js';
import { allNine, checkLine, initialChecks, originalResults, reduceChecks, type ChecksState } from './checks-state.js';
import { storedHigher, storedKey, storedSolve } from './checks-stored.js';
import { useLatestReducer } from './use-latest-reducer.js';
import type { WorkSet } from './work.js';

export interface ChecksModel {
  state: ChecksState;
  onKey: (input: string, key: Key, pageRows: number, logLines: number) => void;
  latest: () => ChecksState;
}

/** The bug as the store holds it: the checks of its last report as lines, its latest solve and its higher-order family. */
function storedView(core: WorkbenchCore, id: string) {
  const details = core.bugDetails(id);
  const checks = details?.checks ?? [];
  const original = originalResults(checks);
  const bug = core.bug(id);
  return {
    lines: checks.map((c) => checkLine(c, original)),
    solve: bug ? storedSolve(bug, details?.attempts ?? []) : null,
    higher: bug ? storedHigher(core, bug) : null,
    storedKey: storedKey(core, bug),
  };
}

interface LiveSession {
  stored: StoredCheckSession;
  controller: AbortController;
  ended: () => void;
}

export function useChecks(core: WorkbenchCore | undefined, bugId: string | undefined, work: WorkSet, openBug: (id: string) => void): ChecksModel {
  const [state, dispatch, latest] = useLatestReducer(reduceChecks, initialChecks);
  const live = useRef<LiveSession | undefined>(undefined);

  // The bug's last report, shown again whenever a new one is recorded (a check that was under way when the bug was opened).
  const checkedAt = bugId ? core?.bug(bugId)?.check?.at : undefined;
  // Solve and higher-order results recorded since (here or by the CLI) are read again too.
  const stored = core && bugId ? storedKey(core, core.bug(bugId)) : '';
  useEffect(() => {
    const shown = latest();
    // The same bug's report, or the lines of a session stepped here (which made that report), stay.
    if (!core || !bugId || shown.busy || (shown.bugId === bugId && shown.storedKey === stored && (shown.checkedAt === checkedAt || shown.source === 'session'))) return;
    dispatch({ type: 'show-bug', bugId, checkedAt, ...storedView(core, bugId) });
  }, [core, bugId, checkedAt, stored, dispatch, latest]);

  /** Ends the session: its verdict (or cancellation) is recorded, and the work is done. */
  const finish = async () => {
    const current = live.current;
    if (!current) return;
    live.current = undefined;
    try {
      const { bug } = await current.stored.finish();
      const verdict = bug.check?.valid ? 'VALID' : bug.check?.cancelled ? 'cancelled: no verdict' : `INVALID: ${bug.check?.failedCheck} failed`;
      dispatch({ type: 'session-ended', message: `${bug.id} ${verdict} — recorded`, error: !bug.check?.valid });
    } finally {
      current.ended();
    }
  };

  const start = (): LiveSession | undefined => {
    if (!core || !bugId) return undefined;
    const controller = new AbortController();
    const stored = core.openChecks({ bugId, runId: `${bugId}-tui-check` }, { signal: controller.signal }, (reported) => {
      if (reported.type !== 'check') return;
      const event = reported.event;
      if (event.type === 'check-started') dispatch({ type: 'check-started', name: event.check });
      else if (event.type === 'check-finished') {
        const results = live.current?.stored.session.results ?? [event.result];
        dispatch({ type: 'check-finished', line: checkLine(event.result, originalResults(results)) });
      }
    });
    let ended: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (ended = resolve));
    live.current = { stored, controller, ended };
    // Cancelled (c, quitting): the containers go and what was judged is recorded.
    controller.signal.addEventListener('abort', () => void finish(), { once: true });
    work.add('checks', controller, done);
    dispatch({ type: 'session-started' });
    return live.current;
  };

  /** One step (or the rest) at a time: keys pressed meanwhile are ignored. */
  const stepping = useRef(false);
  const guarded = (what: () => Promise<void>) => {
    if (stepping.current) return;
    stepping.current = true;
    void what()
      .catch(async (error: unknown) => {
        dispatch({ type: 'session-ended', message: errorMessage(error), error: true });
        await finish().catch(() => undefined);
      })
      .finally(() => (stepping.current = false));
  };

  const stepOne = () =>
    guarded(async () => {
      const current = live.current ?? start();
      if (!current) return;
      await current.stored.session.step();
      if (current.stored.session.done) await finish();
    });

  const runRest = () =>
    guarded(async () => {
      const current = live.current ?? start();
      if (!current) return;
      await current.stored.session.runAll();
      await finish();
    });

  const solve = () => {
    if (!core || !bugId) return;
    const bug = core.bug(bugId);
    if (!bug) return;
    const controller = new AbortController();
    const policy = core.defaultPolicy();
    dispatch({ type: 'solve-started', image: bug.image, k: DEFAULT_SOLVE.k, policy });
    const done = core
      .solve({ ...DEFAULT_SOLVE, bugId, policy, seed: core.newSeed() }, { signal: controller.signal }, (event) => {
        // The run's id too: the grid names its run, as the higher-order list names the runs of its attempts.
        if (event.type === 'rollout' || event.type === 'run-started') dispatch({ type: 'solve-event', event });
        else if (event.type === 'attempt') {
          const a = event.attempt;
          dispatch({ type: 'solve-attempt', id: a.id, result: { solver: a.solver, status: a.status, solved: a.solved, reward: a.reward, failing: a.failing.length } });
        }
      })
      .then((result) => dispatch({ type: 'solve-done', solveRate: result.solveRate, injectReward: result.injectReward }))
      .catch((error: unknown) => dispatch({ type: 'message', text: errorMessage(error), error: true }));
    work.add('solve', controller, done);
  };

  const higher = () => {
    if (!core || !bugId) return;
    const controller = new AbortController();
    dispatch({ type: 'higher-started', parent: bugId });
    const done = core
      .higherOrder({ parentId: bugId }, { signal: controller.signal }, (event) => {
        if (event.type === 'bug-added' && event.attempt) {
          dispatch({ type: 'higher-child', child: { id: event.bug.id, attempt: event.attempt.id, solver: event.attempt.solver, marks: '', status: 'checking' } });
        } else if (event.type === 'check' && event.event.type === 'check-finished') dispatch({ type: 'higher-mark', id: event.subject, verdict: event.event.result.verdict });
      })
      .then((result) => dispatch({ type: 'higher-done', skipped: result.skipped, statuses: Object.fromEntries(result.bugs.map((b) => [b.id, b.status])) }))
      .catch((error: unknown) => {
        dispatch({ type: 'higher-done', skipped: [], statuses: {} });
        dispatch({ type: 'message', text: errorMessage(error), error: true });
      });
    work.add('higher-order', controller, done);
  };

  const onKey = (input: string, key: Key, pageRows: number, logLines: number) => {
    const current = latest();
    if (current.log) {
      const max = Math.max(0, logLines - pageRows);
      if (key.escape || key.leftArrow) dispatch({ type: 'close-log' });
      else if (key.pageDown) dispatch({ type: 'scroll', delta: pageRows, max });
      else if (key.pageUp) dispatch({ type: 'scroll', delta: -pageRows, max });
      else if (key.downArrow || input === 'j') dispatch({ type: 'scroll', delta: 1, max });
      else if (key.upArrow || input === 'k') dispatch({ type: 'scroll', delta: -1, max });
      else if (input === 'g') dispatch({ type: 'scroll', delta: -Infinity, max });
      else if (input === 'G') dispatch({ type: 'scroll', delta: Infinity, max });
      return;
    }
    if (key.upArrow || input === 'k') return dispatch({ type: 'cursor', delta: -1 });
    if (key.downArrow || input === 'j') return dispatch({ type: 'cursor', delta: 1 });
    if (input === 'l') {
      const line = allNine(current.lines, current.running)[current.cursor];
      const run = line?.runs[0];
      if (line && run) dispatch({ type: 'open-log', title: `${line.name}: ${run.label}`, path: run.logPath });
      else dispatch({ type: 'message', text: line ? `${line.name} ran no tests, so it has no log` : 'that check has not run yet', error: false });
      return;
    }
    if (!bugId) return;
    const busy = work.labels();
    if (key.return && !current.running) return stepOne();
    if (input === 'a' && !current.running) return runRest();
    if (input === 's') {
      if (busy.includes('solve')) return dispatch({ type: 'message', text: 'solver attempts are already running', error: true });
      return solve();
    }
    if (input === 'h') {
      if (busy.includes('higher-order')) return dispatch({ type: 'message', text: 'the higher-order bugs are being made', error: true });
      return higher();
    }
    if (input === 'o') {
      const children = current.higher?.children ?? [];
      if (children.length > 0) return openBug(children[(children.findIndex((c) => c.id === bugId) + 1) % children.length]!.id);
      const why = !current.higher
        ? 'no higher-order bug to open: h makes them from the failed solver attempts (s runs them)'
        : current.higher.busy
          ? 'no higher-order bug to open yet: they are being made'
          : 'no higher-order bug to open: none of the failed attempts made one';
      return dispatch({ type: 'message', text: why, error: false });
    }
    if (input === 'c') {
      work.cancel('checks');
      work.cancel('solve');
      work.cancel('higher-order');
    }
  };

  return { state, onKey, latest };
}
