import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { App, realCore } from '../../src/ui/app.js';

describe('workbench', () => {
  it('checks the engine, then lists the sample images from the real engine and moves the selection', async () => {
    const { lastFrame, stdin, unmount } = render(<App core={realCore} />);
    await vi.waitFor(() => expect(lastFrame()).toContain('Repo images'), { timeout: 20_000 });
    const frame = lastFrame()!;
    expect(frame).toMatch(/bugbench\/repo-\w+:latest/);
    const selected = () => /› (\S+)/.exec(lastFrame()!)?.[1];
    const first = selected();
    stdin.write('\u001B[B'); // arrow down
    await vi.waitFor(() => expect(selected()).not.toBe(first), { timeout: 10_000 });
    expect(lastFrame()).toContain('tests: python3 -m pytest -rA');
    unmount();
  });

  it('shows the setup error when the engine cannot be set up', async () => {
    const core = {
      ...realCore,
      diagnose: realCore.diagnose,
      fix: async () => {
        throw new Error('no Docker engine answers and starting one needs root');
      },
    };
    const report = await realCore.diagnose();
    const unhealthy = { ...report, engine: { ...report.engine, ok: false } };
    const { lastFrame, unmount } = render(<App core={{ ...core, diagnose: async () => unhealthy }} />);
    await vi.waitFor(() => expect(lastFrame()).toContain('Setup failed'), { timeout: 10_000 });
    expect(lastFrame()).toContain('starting one needs root');
    unmount();
  });
});
