/**
 * The workbench: sets up what is missing (with progress), shows the repo
 * images, and runs injections on them with a live view of every rollout.
 * One key router (this component's useInput) sends each key to the screen
 * that owns it.
 */
import { Box, Text, render, useApp, useInput, useStdout, type Key } from 'ink';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { DEFAULT_CHECK_PARAMS } from '../bugs/meta.js';
import { errorMessage } from '../errors.js';
import { diagnose, fix, reportHealthy } from '../pipeline/doctor.js';
import { runInjection } from '../pipeline/inject.js';
import { dockerClient } from '../sandbox/docker.js';
import { reapOrphans } from '../sandbox/orphans.js';
import { listRepoImages, type RepoImage } from '../sandbox/repo-image.js';
import { countsByImage } from '../store/queries.js';
import { openStore } from '../store/store.js';
import { ImagesScreen } from './images-screen.js';
import { InjectSetupScreen } from './inject-setup-screen.js';
import { RunScreen } from './run-screen.js';
import { initialState, reduce, type ViewState } from './state.js';

/** What the workbench asks of the core; tests may pass their own engine-backed functions. */
export interface WorkbenchCore {
  diagnose: typeof diagnose;
  fix: typeof fix;
  listImages: () => Promise<RepoImage[]>;
  inject: typeof runInjection;
}

export const realCore: WorkbenchCore = {
  diagnose,
  fix,
  listImages: () => listRepoImages(dockerClient(), countsByImage(openStore().all('bugs'))),
  inject: runInjection,
};

export function App({ core = realCore }: { core?: WorkbenchCore }) {
  const [state, dispatch] = useReducer(reduce, initialState);
  const { exit } = useApp();
  const { stdout } = useStdout();
  const running = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        let report = await core.diagnose();
        if (!reportHealthy(report)) {
          report = await core.fix((message) => !cancelled && dispatch({ type: 'setup-progress', message }));
        }
        if (cancelled) return;
        dispatch({ type: 'diagnosed', report });
        const images = await core.listImages();
        if (!cancelled) dispatch({ type: 'images-loaded', images });
      } catch (error) {
        if (!cancelled) dispatch({ type: 'setup-failed', message: errorMessage(error) });
      }
    })();
    return () => {
      cancelled = true;
      running.current?.abort();
    };
  }, [core]);

  const startRun = useCallback(
    (current: ViewState) => {
      const image = current.images[current.cursor];
      if (!image) return;
      const controller = new AbortController();
      running.current = controller;
      dispatch({ type: 'start-run' });
      const { form } = current;
      core
        .inject({
          image: image.tag,
          strategy: form.strategy,
          policy: form.policy,
          n: form.n,
          concurrency: form.concurrency,
          seed: Date.now() % 100_000,
          params: DEFAULT_CHECK_PARAMS,
          maxSteps: 100,
          signal: controller.signal,
          onEvent: (rolloutId, event) => dispatch({ type: 'rollout-event', rolloutId, event }),
          onCheckEvent: (rolloutId, event) => {
            if (event.type === 'check-started' || event.type === 'check-finished') dispatch({ type: 'check-event', rolloutId, event });
          },
          onBug: (bug) => dispatch({ type: 'bug', bug }),
        })
        .then((result) => dispatch({ type: 'run-finished', runId: result.runId }))
        .catch((error: unknown) => dispatch({ type: 'run-failed', message: errorMessage(error) }))
        .finally(async () => {
          running.current = undefined;
          dispatch({ type: 'images-loaded', images: await core.listImages().catch(() => current.images) });
        });
    },
    [core],
  );

  useInput((input, key) => {
    // Keys typed quickly can arrive together ("--"); take plain characters one at a time.
    if (input.length > 1 && !key.ctrl && !key.meta && /^[\x20-\x7e]+$/.test(input)) {
      for (const char of input) route(char, key);
      return;
    }
    route(input, key);
  });

  function route(input: string, key: Key): void {
    switch (state.screen) {
      case 'setup':
        if (input === 'q' || key.escape) exit();
        return;
      case 'images':
        if (input === 'q' || key.escape) exit();
        else if (key.upArrow || input === 'k') dispatch({ type: 'cursor', delta: -1 });
        else if (key.downArrow || input === 'j') dispatch({ type: 'cursor', delta: 1 });
        else if (input === 'i') dispatch({ type: 'open-inject' });
        return;
      case 'inject-setup':
        if (key.escape) dispatch({ type: 'back' });
        else if (key.leftArrow) dispatch({ type: 'form', field: 'strategy', delta: -1 });
        else if (key.rightArrow) dispatch({ type: 'form', field: 'strategy', delta: 1 });
        else if (input === '+' || input === '=') dispatch({ type: 'form', field: 'n', delta: 1 });
        else if (input === '-') dispatch({ type: 'form', field: 'n', delta: -1 });
        else if (input === ']') dispatch({ type: 'form', field: 'concurrency', delta: 1 });
        else if (input === '[') dispatch({ type: 'form', field: 'concurrency', delta: -1 });
        else if (key.return) startRun(state);
        return;
      case 'run':
        if (key.upArrow || input === 'k') dispatch({ type: 'focus', delta: -1 });
        else if (key.downArrow || input === 'j') dispatch({ type: 'focus', delta: 1 });
        else if (input === 'c') running.current?.abort();
        else if (state.run?.done && key.escape) dispatch({ type: 'back' });
        else if (state.run?.done && input === 'q') exit();
        return;
    }
  }

  return (
    <Box flexDirection="column">
      <Box>
        <Text bold color="cyan">bugbench</Text>
        <Text dimColor> — verified bugs from repository images</Text>
      </Box>
      {state.screen === 'setup' ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>{state.setupError ? 'Setup failed:' : 'Checking the Docker engine and images…'}</Text>
          {state.setupLog.map((line, i) => (
            <Text key={i} dimColor>
              {line}
            </Text>
          ))}
          {state.setupError ? <Text color="red">{state.setupError}</Text> : null}
          <Text dimColor>q quit</Text>
        </Box>
      ) : null}
      {state.screen === 'images' ? <ImagesScreen state={state} /> : null}
      {state.screen === 'inject-setup' ? <InjectSetupScreen state={state} /> : null}
      {state.screen === 'run' && state.run ? <RunScreen run={state.run} rows={stdout.rows || 40} /> : null}
    </Box>
  );
}

export async function runWorkbench(): Promise<number> {
  // Containers of a bugbench that died go first; if no engine answers yet, setup reaps after starting one.
  await reapOrphans().catch(() => undefined);
  const app = render(<App />);
  await app.waitUntilExit();
  return 0;
}
