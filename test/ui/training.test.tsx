import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { importArtifact } from '../../src/pipeline/import.js';
import { acceptBug } from '../../src/pipeline/review.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { workbenchCore } from '../../src/pipeline/workbench-core.js';
import { artifactPath } from '../helpers/artifacts.js';

const root = mkdtempSync(join(tmpdir(), 'bugbench-training-ui-'));
chmodSync(root, 0o755); // the Slurm job user reads the dataset
const store = Store.open({ root });
const core = workbenchCore(store);

beforeAll(async () => {
  const { bug } = await importArtifact({ folder: artifactPath('valid-two-files'), analysis: { policy: 'offline' } }, { store });
  acceptBug(store, bug.id, 'for the training screen');
}, 120_000);

describe('the Training screen', () => {
  it('submits the accepted bugs to the local Slurm from its form and follows the job to success with its log', async () => {
    const saved = process.env.BUGBENCH_HOME;
    process.env.BUGBENCH_HOME = root; // the training settings and the jobs' folders live in the workspace
    try {
      const { lastFrame, stdin, unmount } = render(<App core={core} />);
      await vi.waitFor(() => expect(lastFrame()).toContain('Repo images'), { timeout: 20_000 });
      await vi.waitFor(
        () => {
          if (!lastFrame()!.includes('[6 Training]')) stdin.write('6');
          expect(lastFrame()).toMatch(/0 training job\(s\)/);
        },
        { timeout: 10_000, interval: 200 },
      );
      // One bug is accepted already: the screen offers to submit it rather than asking for some.
      expect(lastFrame()).toContain('none yet: n submits the 1 accepted bug(s)');
      stdin.write('n');
      await vi.waitFor(() => expect(lastFrame()).toMatch(/› format +‹ swebench ›/));
      expect(lastFrame()).toMatch(/engine +‹ slurm ›/);
      expect(lastFrame()).toMatch(/command \(dry run: a stand-in trainer that reads every line\)/);
      stdin.write('\u001B[C'); // → sft
      stdin.write('\u001B[C'); // → rl
      await vi.waitFor(() => expect(lastFrame()).toMatch(/format +‹ rl ›/));
      stdin.write('\r');
      await vi.waitFor(() => expect(lastFrame()).toMatch(/slurm-\d+ +(queued|running|succeeded) +rl +rl +1 bug\(s\)/), { timeout: 30_000 });
      await vi.waitFor(() => expect(lastFrame()).toMatch(/slurm-\d+ +succeeded/), { timeout: 60_000 });
      await vi.waitFor(() => expect(lastFrame()).toMatch(/dry run: read 1 rl record\(s\)/), { timeout: 20_000 });
      expect(store.all('jobs')).toHaveLength(1);
      expect(store.all('jobs')[0]).toMatchObject({ state: 'succeeded', format: 'rl', bugCount: 1, exitCode: 0 });
      unmount();
    } finally {
      process.env.BUGBENCH_HOME = saved;
    }
  }, 120_000);
});
