/** The workbench: sets up what is missing (with progress), then shows the repo images. */
import { Box, Text, render, useApp, useInput } from 'ink';
import { useEffect, useReducer } from 'react';
import { countBugsByImage } from '../bugs/bug-counts.js';
import { errorMessage } from '../errors.js';
import { diagnose, fix, reportHealthy } from '../pipeline/doctor.js';
import { dockerClient } from '../sandbox/docker.js';
import { listRepoImages, type RepoImage } from '../sandbox/repo-image.js';
import { ImagesScreen } from './images-screen.js';
import { initialState, reduce } from './state.js';

/** What the workbench asks of the core; tests may pass their own engine-backed functions. */
export interface WorkbenchCore {
  diagnose: typeof diagnose;
  fix: typeof fix;
  listImages: () => Promise<RepoImage[]>;
}

export const realCore: WorkbenchCore = {
  diagnose,
  fix,
  listImages: () => listRepoImages(dockerClient(), countBugsByImage()),
};

export function App({ core = realCore }: { core?: WorkbenchCore }) {
  const [state, dispatch] = useReducer(reduce, initialState);
  const { exit } = useApp();

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
    };
  }, [core]);

  useInput((input, key) => {
    if (input === 'q' || key.escape) exit();
    if (state.screen !== 'images') return;
    if (key.upArrow || input === 'k') dispatch({ type: 'cursor', delta: -1 });
    if (key.downArrow || input === 'j') dispatch({ type: 'cursor', delta: 1 });
  });

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
      ) : (
        <ImagesScreen state={state} />
      )}
    </Box>
  );
}

export async function runWorkbench(): Promise<number> {
  const app = render(<App />);
  await app.waitUntilExit();
  return 0;
}
