import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests share one Docker engine on two cores: a couple of files at a time.
    maxWorkers: 2,
    // Ink draws nothing until exit when CI is set; the TUI tests need its frames.
    // BUGBENCH_TEST_HOME lets two checkouts run their suites at once without sharing a workspace.
    env: { BUGBENCH_HOME: process.env.BUGBENCH_TEST_HOME ?? '/tmp/bugbench-test-home', CI: 'false' },
  },
});
