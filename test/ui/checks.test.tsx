import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { importArtifact } from '../../src/pipeline/import.js';
import { Store } from '../../src/store/store.js';
import { App } from '../../src/ui/app.js';
import { workbenchCore } from '../../src/pipeline/workbench-core.js';
import { artifactPath } from '../helpers/artifacts.js';

const root = mkdtempSync(join(tmpdir(), 'bugbench-checks-ui-'));
const store = Store.open({ root });
const core = workbenchCore(store);
let bug = '';

beforeAll(async () => {
  bug = (await importArtifact({ folder: artifactPath('valid-two-files'), analysis: { policy: 'offline' } }, { store })).bug.id;
}, 120_000);

const UP = '\u001B[A';
const ESC = '\u001B';

describe('the Checks screen', () => {
  it('steps through the nine checks one key at a time, shows a run and its log, and records the verdict', async () => {
    const { lastFrame, stdin, unmount } = render(<App core={core} />);
    await vi.waitFor(() => expect(lastFrame()).toContain('Repo images'), { timeout: 20_000 });
    await vi.waitFor(
      () => {
        if (!lastFrame()!.includes('[4 Checks]')) stdin.write('4');
        expect(lastFrame()).toContain(`${bug} VALID`);
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(lastFrame()).toMatch(/last report/);
    const before = store.get('bugs', bug)!.check!.at;
    stdin.write('\r');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/stepping: 1 of 9 judged/), { timeout: 30_000 });
    expect(lastFrame()).toMatch(/✓ test-files/);
    expect(lastFrame()).toMatch(/^ {4}parser$/m); // not run yet (no focus mark, no verdict)
    stdin.write('\r');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/stepping: 2 of 9 judged/), { timeout: 30_000 });
    // The parser check ran the original: its run, counts and command are shown.
    expect(lastFrame()).toMatch(/run "original": exit 0, [\d.]+ s, 83 passed, 0 failed/);
    expect(lastFrame()).toMatch(/\$ bash \/bugbench\/artifact\/test_script\.sh/);
    stdin.write('l');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/── log of parser: original/));
    stdin.write(ESC);
    await vi.waitFor(() => expect(lastFrame()).not.toMatch(/── log of/));
    stdin.write('a');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/VALID — recorded/), { timeout: 60_000 });
    expect(lastFrame()).toMatch(/stepping: 9 of 9 judged/);
    // bug-validity (the sixth) shows the tests that changed state against the original.
    // The cursor followed the checks to the last one; three up is bug-validity.
    for (let i = 0; i < 3; i++) stdin.write(UP);
    await vi.waitFor(() => expect(lastFrame()).toMatch(/6 test\(s\) changed against the original run/));
    expect(lastFrame()).toMatch(/tests\/test_lexer\.py::test_numbers\[1e3-Kind\.FLOAT-1000\.0\]: passed → failed/);
    expect(store.get('bugs', bug)!.check!.at > before).toBe(true);
    unmount();
  }, 120_000);

  it('runs solver attempts with s and builds higher-order bugs with h, parent → attempt → child', async () => {
    const { lastFrame, stdin, unmount } = render(<App core={core} />);
    await vi.waitFor(() => expect(lastFrame()).toContain('Repo images'), { timeout: 20_000 });
    await vi.waitFor(
      () => {
        if (!lastFrame()!.includes('[4 Checks]')) stdin.write('4');
        expect(lastFrame()).toContain(`${bug} VALID`);
      },
      { timeout: 10_000, interval: 200 },
    );
    stdin.write('s');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/solving \d\/8/), { timeout: 10_000 });
    await vi.waitFor(() => expect(lastFrame()).toMatch(/solving 8\/8 · solve rate 0\.\d+ · injection reward -?[\d.]+/), { timeout: 120_000 });
    const solve = store.get('bugs', bug)!.solve!;
    expect(solve.attempts).toBe(8);
    expect(lastFrame()).toContain(`solve rate ${solve.solveRate.toFixed(3)}`);
    stdin.write('h');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/higher-order: [1-9] bug\(s\), \d attempt\(s\) make none/), { timeout: 120_000 });
    expect(lastFrame()).toMatch(/a\d \(offline\/partial\) → knotcfg-handwritten-[0-9a-f]{8} ✓✓✓✓✓✓✓✓✓ valid/);
    stdin.write('o');
    await vi.waitFor(() => expect(lastFrame()).toMatch(new RegExp(`VALID · order 2: ${bug} → a\\d → this`)), { timeout: 10_000 });
    unmount();
  }, 300_000);
});
