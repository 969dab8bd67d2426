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

const root = mkdtempSync(join(tmpdir(), 'bugbench-review-ui-'));
const store = Store.open({ root });
const core = workbenchCore(store);
let valid = '';
let invalid = '';

beforeAll(async () => {
  valid = (await importArtifact({ folder: artifactPath('valid-two-files') }, { store })).bug.id;
  invalid = (await importArtifact({ folder: artifactPath('weakening-hides-nothing') }, { store })).bug.id;
}, 120_000);

const DOWN = '\u001B[B';
const ESC = '\u001B';

async function openReview() {
  const app = render(<App core={core} />);
  await vi.waitFor(() => expect(app.lastFrame()).toContain('Repo images'), { timeout: 20_000 });
  await vi.waitFor(
    () => {
      if (!app.lastFrame()!.includes('bug(s)')) app.stdin.write('5');
      expect(app.lastFrame()).toMatch(/2 bug\(s\)/);
    },
    { timeout: 10_000, interval: 200 },
  );
  return app;
}

describe('the Review screen', () => {
  it('lists the bugs, filters them, and refuses to accept an invalid one with the reason', async () => {
    const { lastFrame, stdin, unmount } = await openReview();
    expect(lastFrame()).toMatch(/\[5 Review\]/);
    expect(lastFrame()).toContain(valid);
    expect(lastFrame()).toContain(invalid);
    // The newest (the invalid one) is selected first; its summary names the failed check.
    expect(lastFrame()).toMatch(/failed test-weakening/);
    stdin.write('a');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/is invalid: check test-weakening failed/));
    expect(store.get('bugs', invalid)?.status).toBe('invalid');
    // Filter by status: checking, valid…
    stdin.write('f');
    stdin.write('f');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/1 bug\(s\) status valid/));
    expect(lastFrame()).not.toContain(invalid);
    unmount();
  }, 60_000);

  it('shows diffs, steps to a check and opens its log, accepts and rejects with a typed reason', async () => {
    const { lastFrame, stdin, unmount } = await openReview();
    stdin.write(DOWN);
    await vi.waitFor(() => expect(lastFrame()).toMatch(new RegExp(`›${valid}`)));
    stdin.write('v');
    stdin.write('v');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/\[diff\]/));
    expect(lastFrame()).toMatch(/── bug_inject\.diff/);
    stdin.write('V');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/\[checks\]/));
    expect(lastFrame()).toMatch(/✓ test-files/);
    stdin.write('\r'); // into the detail pane
    stdin.write(DOWN);
    stdin.write(DOWN); // test-script
    stdin.write('l');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/── log of test-script: original/));
    expect(lastFrame()).toMatch(/passed|PASSED/);
    stdin.write(ESC);
    await vi.waitFor(() => expect(lastFrame()).not.toMatch(/── log of/));
    stdin.write('a');
    await vi.waitFor(() => expect(lastFrame()).toContain(`${valid} accepted`));
    expect(store.get('bugs', valid)).toMatchObject({ status: 'accepted', review: { decision: 'accepted' } });
    stdin.write('r');
    await vi.waitFor(() => expect(lastFrame()).toMatch(/reason:/));
    for (const char of 'too easy') stdin.write(char);
    await vi.waitFor(() => expect(lastFrame()).toMatch(/reason: too easy/));
    // Every key is text now: the footer says only how the typing ends.
    expect(lastFrame()).toContain('typing the reason: enter rejects the bug · esc leaves without rejecting');
    expect(lastFrame()).not.toContain('a accept');
    stdin.write('\r');
    await vi.waitFor(() => expect(lastFrame()).toContain(`${valid} rejected`));
    expect(store.get('bugs', valid)).toMatchObject({ status: 'rejected', review: { decision: 'rejected', reason: 'too easy' } });
    unmount();
  }, 60_000);

  it('lists every key of the screen in the ? overlay, and esc closes it', async () => {
    const { lastFrame, stdin, unmount } = await openReview();
    stdin.write('?');
    await vi.waitFor(() => expect(lastFrame()).toContain('Keys of Review'));
    expect(lastFrame()).toMatch(/r +reject it/);
    expect(lastFrame()).toMatch(/ctrl-c +cancel what runs and quit/);
    stdin.write(ESC);
    await vi.waitFor(() => expect(lastFrame()).not.toContain('Keys of Review'));
    expect(lastFrame()).toMatch(/bug\(s\)/);
    unmount();
  }, 60_000);
});
