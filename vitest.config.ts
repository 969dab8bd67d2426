import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

// BUGBENCH_TEST_HOME lets two checkouts run their suites at once without sharing a workspace.
const home = process.env.BUGBENCH_TEST_HOME ?? '/tmp/bugbench-test-home';

const shared = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Ink draws nothing until exit when CI is set; the TUI tests need its frames.
  env: { BUGBENCH_HOME: home, CI: 'false' },
};

/**
 * Engine-facing tests that run a second time on rootless Podman (the test
 * set-up starts it): one file per path — sandbox, checks, injection, solving
 * with higher-order bugs and exports — chosen so the second pass stays short.
 */
const PODMAN_FILES = ['test/integration/sandbox.test.ts', 'test/integration/orphans.test.ts', 'test/integration/podman.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Integration tests share one Docker engine on two cores: a couple of files at a time.
    maxWorkers: 2,
    // The longest files first, so neither worker is left alone with one at the end.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          ...shared,
          name: 'docker',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          // Written for Podman only (its project runs it).
          exclude: ['test/integration/podman.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          ...shared,
          name: 'podman',
          include: PODMAN_FILES,
          setupFiles: ['test/podman-engine.ts'],
          // Its own workspace: bugs made on Podman are not mixed with those of the docker project.
          env: { ...shared.env, BUGBENCH_HOME: `${home}-podman` },
        },
      },
    ],
  },
});
