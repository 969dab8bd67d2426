import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/ui/app.js';
import { workbenchCore } from '../../src/pipeline/workbench-core.js';
import { Store } from '../../src/store/store.js';

describe('workbench', () => {
  it('checks the engine, then lists the sample images from the real engine and moves the selection', async () => {
    const { lastFrame, stdin, unmount } = render(<App core={workbenchCore()} />);
    await vi.waitFor(() => expect(lastFrame()).toContain('Repo images'), { timeout: 20_000 });
    const frame = lastFrame()!;
    expect(frame).toMatch(/bugbench\/repo-\w+:latest/);
    const selected = () => /› (\S+)/.exec(lastFrame()!)?.[1];
    const first = selected();
    // Under load Ink may still be wiring up input when the first frame shows; press again until it moves.
    await vi.waitFor(
      () => {
        if (selected() === first) stdin.write('\u001B[B'); // arrow down
        expect(selected()).not.toBe(first);
      },
      { timeout: 10_000, interval: 200 },
    );
    // The details name the selected image's test command: the knotcfg sample's is pytest's.
    for (let i = 0; i < 40 && selected() !== 'bugbench/repo-knotcfg:latest'; i++) {
      const at = selected();
      stdin.write('\u001B[B');
      await vi.waitFor(() => expect(selected()).not.toBe(at), { timeout: 5000, interval: 50 }).catch(() => undefined);
    }
    expect(lastFrame()).toContain('tests: python3 -m pytest -rA');
    unmount();
  });

  it('runs an offline injection from the images screen and shows each rollout live', async () => {
    // A workspace of its own: in the shared one another test may have made the same bug, and this one would be its duplicate.
    const { lastFrame, stdin, unmount } = render(<App core={workbenchCore(Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-workbench-')) }))} />);
    await vi.waitFor(() => expect(lastFrame()).toContain('Repo images'), { timeout: 20_000 });
    const knotcfg = () => /› \S*knotcfg/.test(lastFrame()!);
    for (let i = 0; i < 10 && !knotcfg(); i++) {
      stdin.write('\u001B[B');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(knotcfg()).toBe(true);
    stdin.write('i');
    await vi.waitFor(() => expect(lastFrame()).toContain('New injection run on bugbench/repo-knotcfg:latest'), { timeout: 10_000 });
    // One bug: down to "bugs", type 1 (it replaces the 3); "at a time" (2) then runs 1, as from the CLI.
    for (const key of ['\u001B[B', '1']) {
      stdin.write(key);
      await new Promise((r) => setTimeout(r, 30));
    }
    await vi.waitFor(() => expect(lastFrame()).toMatch(/runs 1: one rollout a bug/), { timeout: 10_000 });
    expect(lastFrame()).toContain('enter starts the run');
    stdin.write('\r');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/✓ bash/), { timeout: 30_000 });
    await vi.waitFor(() => expect(lastFrame()).toMatch(/1\/1 done, 1 valid/), { timeout: 90_000 });
    expect(lastFrame()).toMatch(/✓✓✓✓✓✓✓✓✓ VALID/);
    const id = /(knotcfg-\w+-[0-9a-f]{8})/.exec(lastFrame()!)![1]!;
    // Enter on the finished rollout opens its bug on Review.
    stdin.write('\r');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/\[5 Review\]/), { timeout: 10_000 });
    expect(lastFrame()).toMatch(new RegExp(`${id}  VALID`));
    // esc goes back the way it came: Rollouts, then the form, then Images.
    stdin.write('\u001B');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/\[3 Rollouts\]/), { timeout: 10_000 });
    stdin.write('\u001B');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/\[2 Run\]/), { timeout: 10_000 });
    stdin.write('\u001B');
    await vi.waitFor(() => expect(lastFrame()).toContain('Repo images'), { timeout: 10_000 });
    unmount();
  }, 120_000);

  it('shows the setup error when the engine cannot be set up', async () => {
    const core = {
      ...workbenchCore(),
      diagnose: workbenchCore().diagnose,
      fix: async () => {
        throw new Error('no Docker engine answers and starting one needs root');
      },
    };
    const report = await workbenchCore().diagnose();
    const unhealthy = { ...report, engine: { ...report.engine, ok: false } };
    const { lastFrame, unmount } = render(<App core={{ ...core, diagnose: async () => unhealthy }} />);
    await vi.waitFor(() => expect(lastFrame()).toContain('Setup failed'), { timeout: 10_000 });
    expect(lastFrame()).toContain('starting one needs root');
    unmount();
  });
});
