/**
 * The workbench: sets up what is missing (with progress), then its screens —
 * Images, Run (the injection form), Rollouts (live), Review — switched by
 * their number keys and tab, under one header and over one footer. One key
 * router (this component's useInput) takes the global keys and hands the rest
 * to the screen that owns them.
 */
import { Box, Text, render, useApp, useInput, type Key } from 'ink';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { errorMessage } from '../errors.js';
import { reportHealthy } from '../pipeline/doctor.js';
import type { CoreEvent } from '../pipeline/events.js';
import { workbenchCore, type InjectionStart, type WorkbenchCore } from '../pipeline/workbench-core.js';
import { Footer, Header, HelpOverlay } from './chrome.js';
import { ImagesScreen } from './images-screen.js';
import { InjectSetupScreen } from './inject-setup-screen.js';
import { ChecksScreen } from './checks-screen.js';
import { ReviewScreen, reviewLayout } from './review-screen.js';
import { noteLines, RolloutsScreen, rolloutsLayout } from './rollouts-screen.js';
import { resumedRunView, type RunEvent } from './run-state.js';
import { storedRunView } from './stored-run.js';
import { batcher } from './batcher.js';
import { expandTabs } from './line-fit.js';
import { useRollouts } from './use-rollouts.js';
import { TrainingScreen } from './training-screen.js';
import { useTraining } from './use-training.js';
import { focusedField, formSettings } from './run-form.js';
import { SCREENS, type ScreenId } from './screens.js';
import { splitKeys } from './split-keys.js';
import { initialState, reduce, runImages, type ViewState } from './state.js';
import { useLatestReducer } from './use-latest-reducer.js';
import { useTerminalSize } from './use-terminal-size.js';
import { useChecks } from './use-checks.js';
import { useImageAdopt } from './use-image-adopt.js';
import { useImageBuild } from './use-image-build.js';
import { useReview } from './use-review.js';
import { WorkSet } from './work.js';

export type { WorkbenchCore } from '../pipeline/workbench-core.js';

/**
 * Rows the frame keeps for itself: the header, the footer, and one left free —
 * Ink clears the whole terminal on every frame once a frame is as tall as it.
 */
const CHROME_ROWS = 3;

/** What the workbench needs of a screen (see `screens` in App). */
interface ScreenParts {
  view: () => React.JSX.Element;
  onKey: (input: string, key: Key) => void;
  /** Whether it takes every key now (a field being typed in). */
  capturing?: () => boolean;
}

export function App({ core, onExitCode }: { core: WorkbenchCore; onExitCode?: (code: number) => void }) {
  const [state, dispatch, latest] = useLatestReducer(reduce, initialState);
  const { exit } = useApp();
  const { rows, columns } = useTerminalSize();
  const work = useRef(new WorkSet()).current;
  // The screens reach the workspace once set-up is done.
  const ready = state.ready ? core : undefined;
  const review = useReview(ready);
  const checks = useChecks(ready, review.selected?.id, work, review.openBug);
  const checksLog = useMemo(() => (checks.state.log ? core.logTail(checks.state.log.path) : null), [core, checks.state.log]);
  const openInReview = useCallback(
    (id: string) => {
      review.openBug(id);
      dispatch({ type: 'go', screen: 'review' });
    },
    [review.openBug, dispatch],
  );
  const rollouts = useRollouts(ready, state.run, { openBug: openInReview, cancelLive: () => work.cancel('inject'), resume: (runId) => resumeRun(runId) });
  /** Reads the list again and selects `tag`: a built or adopted image is there when its panel says so. */
  const showImage = async (tag: string) => {
    const [images, engines] = await Promise.all([core.listImages(), core.engines()]);
    dispatch({ type: 'images-loaded', images, engines });
    dispatch({ type: 'select-image', tag });
  };
  const imageBuild = useImageBuild(core, work, showImage);
  const imageAdopt = useImageAdopt(core, work, showImage);
  const training = useTraining(ready);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        let report = await core.diagnose();
        if (!reportHealthy(report)) {
          report = await core.fix((message) => !cancelled && dispatch({ type: 'setup-progress', message }));
        }
        if (cancelled) return;
        dispatch({ type: 'diagnosed', report, seed: core.newSeed() });
        const images = await core.listImages();
        if (!cancelled) dispatch({ type: 'images-loaded', images });
      } catch (error) {
        if (!cancelled) dispatch({ type: 'setup-failed', message: errorMessage(error) });
      }
    })();
    return () => {
      cancelled = true;
      void work.cancelAll();
    };
  }, [core, work]);

  // Coming back to Images reads the list again: a bug accepted or rejected in Review, or checked again, changed its counts.
  const onImages = state.screen === 'images';
  const everLoaded = state.images.length > 0;
  useEffect(() => {
    if (!onImages || !everLoaded) return;
    let cancelled = false;
    void core.listImages().then(
      (images) => !cancelled && dispatch({ type: 'images-loaded', images }),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [onImages, core]);

  /** Starts an injection (new, here or on Slurm, or a resume) as the workbench's one run, its events feeding the live view. */
  const startInjection = useCallback(
    (start: InjectionStart, current: ViewState) => {
      const controller = new AbortController();
      // A flood of events (text streams a few characters at a time) is shown one batch per frame.
      const events = batcher<RunEvent>((batch) => dispatch({ type: 'batch', events: batch }));
      const report = (event: CoreEvent) => {
        if (event.type === 'rollout') events.push({ ...event, at: Date.now() });
        else if (event.type === 'check' && (event.event.type === 'check-started' || event.event.type === 'check-finished')) events.push(event);
        else if (event.type === 'bug' || event.type === 'run-started') events.push(event);
      };
      const done = core
        .startInjection(start, { signal: controller.signal }, report)
        .then((result) => {
          events.flush();
          dispatch({ type: 'run-finished', runId: result.runId });
        })
        .catch((error: unknown) => dispatch({ type: 'run-failed', message: errorMessage(error) }));
      // The run is over once it ends (R may resume it at once); the image counts are read again after it.
      work.add('inject', controller, done);
      void done.then(async () => dispatch({ type: 'images-loaded', images: await core.listImages().catch(() => current.images) }));
    },
    [core, work],
  );

  const startRun = useCallback(
    (current: ViewState) => {
      // The marked images (a corpus run, rollouts dealt round-robin), else the one under the cursor.
      const images = runImages(current);
      const settings = formSettings(current.form);
      if (images.length === 0 || !settings) return;
      // The next run gets a seed of its own unless one is typed: the same form twice must not make the same bugs.
      dispatch({ type: 'start-run', nextSeed: core.newSeed() });
      const { cluster, ...request } = settings;
      startInjection({ request: { image: images[0]!, ...(images.length > 1 ? { images } : {}), ...request }, ...(cluster ? { cluster } : {}) }, current);
    },
    [core, startInjection],
  );

  /** Resumes an interrupted or cancelled run where it ran: its rollouts go on in the live view from where the record left them; else says why not. */
  const resumeRun = useCallback(
    (runId: string) => {
      const record = core.run(runId);
      if (!record) return `run ${runId} is no longer in the workspace`;
      if (work.labels().includes('inject')) return 'another run is going: R resumes this one once it has ended';
      dispatch({ type: 'resume-run', run: resumedRunView(storedRunView(core, record)) });
      startInjection({ resume: runId }, latest());
      return undefined;
    },
    [core, work, startInjection],
  );

  /** Cancels what runs, waits until its containers are gone, then leaves with `code`. */
  const quit = useCallback(
    async (code: number) => {
      await work.cancelAll();
      onExitCode?.(code);
      exit();
    },
    [exit, onExitCode, work],
  );

  // Ink is handed one handler for good; it calls the router of the latest render. A key can arrive
  // before React has run the effects of a frame already drawn, and must not act on an older render.
  const router = useRef<(input: string, key: Key) => void>(() => undefined);
  router.current = (input, key) => {
    // Keys that arrive together ("--", a paste, "1" and enter from tmux) are taken one at a time, in order.
    const keys = capturing() ? undefined : splitKeys(input, key);
    if (keys) for (const [char, each] of keys) route(char, each);
    else route(input, key);
  };
  useInput(useCallback((input: string, key: Key) => router.current(input, key), []));

  /** The current screen takes text now: every key is its. */
  function capturing(): boolean {
    return screens[latest().screen].capturing?.() ?? false;
  }

  function route(input: string, key: Key): void {
    const state = latest();
    if (key.ctrl && input === 'c') return void quit(130);
    if (state.confirmQuit) {
      if (input === 'q') void quit(0);
      else dispatch({ type: 'stay' });
      return;
    }
    if (!state.ready) {
      if (input === 'q' || key.escape) void quit(0);
      return;
    }
    // A screen taking text (a rejection's reason, a training command, a path to build) gets every key.
    if (capturing()) return routeScreen(input, key);
    if (input === '?') return dispatch({ type: 'toggle-help' });
    if (state.help) {
      if (key.escape) dispatch({ type: 'back' });
      return;
    }
    if (input === 'q') return work.running ? dispatch({ type: 'ask-quit' }) : void quit(0);
    // On a number field of the Run form, digits are typed into it.
    if (state.screen === 'run' && /^\d$/.test(input) && focusedField(state.form) !== 'strategy') return routeScreen(input, key);
    const screen = SCREENS.find((s) => s.key === input);
    if (screen) return dispatch({ type: 'go', screen: screen.id });
    if (key.tab) return dispatch({ type: 'cycle-screen', delta: key.shift ? -1 : 1 });
    routeScreen(input, key);
  }

  /** A key for building or adopting an image: the open field takes every key; b or a opens one, putting away what the other said. */
  function imageTask(input: string, key: Key): boolean {
    if (imageAdopt.capturing()) return imageAdopt.onKey(input, key);
    if (imageBuild.capturing()) return imageBuild.onKey(input, key);
    if (input === 'b') imageAdopt.dismiss();
    if (input === 'a') imageBuild.dismiss();
    return imageBuild.onKey(input, key) || imageAdopt.onKey(input, key);
  }

  const body = rows - CHROME_ROWS;
  /**
   * Each screen of SCREENS (screens.ts): what it draws, what its keys do,
   * and whether it takes every key now (text being typed). A new screen is
   * one entry here and one in SCREENS; the router and the frame read these.
   */
  const screens: Record<ScreenId, ScreenParts> = {
    images: {
      view: () => <ImagesScreen state={state} build={imageBuild.state} adopt={imageAdopt.state} rows={body} columns={columns} />,
      capturing: () => imageBuild.capturing() || imageAdopt.capturing(),
      onKey: (input, key) => {
        if (imageTask(input, key)) return;
        if (key.upArrow || input === 'k') dispatch({ type: 'cursor', delta: -1 });
        else if (key.downArrow || input === 'j') dispatch({ type: 'cursor', delta: 1 });
        else if (input === ' ') dispatch({ type: 'mark' });
        else if (key.return || input === 'i') dispatch({ type: 'go', screen: 'run' });
        else if (key.escape) dispatch({ type: 'back' });
      },
    },
    run: {
      view: () => <InjectSetupScreen state={state} running={work.labels().includes('inject')} />,
      onKey: (input, key) => {
        if (key.escape) dispatch({ type: 'back' });
        else if (key.upArrow || input === 'k') dispatch({ type: 'form', key: { type: 'focus', delta: -1 } });
        else if (key.downArrow || input === 'j') dispatch({ type: 'form', key: { type: 'focus', delta: 1 } });
        else if (key.leftArrow || input === '-') dispatch({ type: 'form', key: { type: 'step', delta: -1 } });
        else if (key.rightArrow || input === '+' || input === '=') dispatch({ type: 'form', key: { type: 'step', delta: 1 } });
        else if (key.backspace || key.delete) dispatch({ type: 'form', key: { type: 'erase' } });
        else if (/^\d$/.test(input)) dispatch({ type: 'form', key: { type: 'type', char: input } });
        else if (key.return && !work.labels().includes('inject')) startRun(latest());
      },
    },
    rollouts: {
      view: () => <RolloutsScreen model={rollouts} rows={body} columns={columns} />,
      onKey: (input, key) => {
        if (key.escape) return dispatch({ type: 'back' });
        const page = rolloutsLayout(body, rollouts.run?.tags.length ?? 0, rollouts.state.focus, noteLines(rollouts)).transcriptRows;
        rollouts.onKey(input, key, page, columns);
      },
    },
    checks: {
      view: () => <ChecksScreen state={checks.state} bug={review.selected} log={checksLog} rows={body} columns={columns} />,
      onKey: (input, key) => {
        if (key.escape && !checks.latest().log) return dispatch({ type: 'back' });
        checks.onKey(input, key, Math.max(3, body - 14), checksLog?.length ?? 0);
      },
    },
    review: {
      view: () => <ReviewScreen model={review} rows={body} columns={columns} />,
      capturing: () => review.capturing(),
      onKey: (input, key) => {
        const view = review.latest();
        if (key.escape && view.rejecting === null && view.focus === 'list' && !view.log) return dispatch({ type: 'back' });
        review.onKey(input, key, reviewLayout(body, review.bugs.length).detailRows);
      },
    },
    training: {
      view: () => <TrainingScreen model={training} rows={body} columns={columns} />,
      capturing: () => training.capturing(),
      onKey: (input, key) => {
        if (key.escape && !training.capturing()) return dispatch({ type: 'back' });
        training.onKey(input, key);
      },
    },
  };

  /** What the footer says while a screen takes keys as text. */
  function typingHint(): string | undefined {
    if (state.screen === 'review' && review.capturing()) return 'typing the reason: enter rejects the bug · esc leaves without rejecting';
    if (state.screen === 'training' && training.capturing()) return 'form: ↑/↓ field · ←/→ choose · type the command · enter submits · esc closes';
    return undefined;
  }

  function routeScreen(input: string, key: Key): void {
    screens[latest().screen].onKey(input, key);
  }

  // A fixed height that clips: whatever a screen draws, the frame never reaches the terminal's height.
  return (
    <Box flexDirection="column" height={rows - 1} overflow="hidden">
      <Header screen={state.screen} ready={state.ready} />
      <Box flexDirection="column" height={body} overflow="hidden">
        {!state.ready ? (
          <Box flexDirection="column">
            <Text>{state.setupError ? 'Setup failed:' : 'Checking the Docker engine and images…'}</Text>
            {state.setupLog.map((line, i) => (
              <Text key={i} dimColor wrap="truncate-end">
                {expandTabs(line)}
              </Text>
            ))}
            {state.setupError ? <Text color="red">{state.setupError}</Text> : null}
            <Text dimColor>q quit</Text>
          </Box>
        ) : state.help ? (
          <HelpOverlay screen={state.screen} columns={columns} rows={body} />
        ) : (
          screens[state.screen].view()
        )}
      </Box>
      {state.ready ? <Footer screen={state.screen} confirmQuit={state.confirmQuit} typing={typingHint()} columns={columns} /> : null}
    </Box>
  );
}

/** Runs the workbench over `core` (set up by the caller: orphans reaped, workspace opened); resolves with the exit code. */
export async function runWorkbench(core: WorkbenchCore = workbenchCore()): Promise<number> {
  let code = 0;
  const app = render(<App core={core} onExitCode={(c) => (code = c)} />, { exitOnCtrlC: false });
  await app.waitUntilExit();
  // The shell's prompt goes on a line of its own, below the last frame.
  process.stdout.write('\n');
  return code;
}
