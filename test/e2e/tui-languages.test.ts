/**
 * The workbench on a language other than Python, with no API key: the Go
 * sample shows its language, the Run form says what the offline policy offers
 * for it, and a removal run makes a Go bug whose nine checks pass on the
 * Checks screen, where it is accepted.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { E2E_TEST_LIMIT_MS, TmuxSession } from '../helpers/tmux.js';
import { selectImage, stepNineChecks } from '../helpers/workbench-keys.js';

/** The run ended without its valid bug: no valid one, cancelled, or stopped with an error. */
const RUN_ENDED_OTHERWISE = /1\/1 done, 0 valid|1 cancelled|The run stopped:/;

let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.kill();
});

describe('bugbench tui on the Go sample', () => {
  it('makes, checks and accepts a Go bug offline at 80×24', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-e2e-go-'));
    session = await TmuxSession.start(`sleep 0.5; CI=false ANTHROPIC_API_KEY= OPENAI_BASE_URL= BUGBENCH_HOME=${home} node ${BIN} tui; echo "exit status $?"; sleep 30`, { columns: 80, rows: 24 });
    await session.waitForState(/Repo images \(\d+\)/);
    await selectImage(session, 'bugbench/repo-ratekit:latest');
    expect(await session.screen()).toMatch(/language: go/);
    await session.keys('Enter');
    await session.waitFor(/New injection run on bugbench\/repo-ratekit:latest/);
    await session.waitFor(/› strategy +‹ removal › offline: removal, history, direct \(Go\)/);
    // One bug, typed into the form (the 1 replaces the 3); 2 at a time then runs one rollout, as the CLI does.
    await session.keys('Down', '1');
    await session.waitFor(/at a time +2 runs 1: one rollout a bug/);
    await session.waitFor(/enter starts the run/);
    await session.keys('Enter');
    await session.waitForState(/[▶✓] (bash|editor) /);
    // The run is done once its bug is checked (Go compiles for each check): wait for that, not for a time.
    const done = await session.waitForState(/1\/1 done, 1 valid/, RUN_ENDED_OTHERWISE);
    expect(done).toMatch(/✓✓✓✓✓✓✓✓✓ VALID/);
    const id = /(ratekit-removal-[0-9a-f]{8})/.exec(done)![1]!;

    // On Checks, the nine checks run again step by step, then the bug is accepted.
    await session.keys('Enter');
    await session.waitFor(new RegExp(`${id}  VALID`));
    await session.keys('4');
    await session.waitFor(new RegExp(`${id} VALID · order 1`));
    await stepNineChecks(session);
    // The stepped checks record their verdict when the session ends; until then the bug is being checked.
    await session.waitForState(/stepping: 9 of 9 judged \(done\)/);
    expect(await session.screen()).toMatch(/✓ gold-patch/);
    await session.keys('5');
    await session.waitFor(/\[5 Review\]/);
    await session.keys('a');
    await session.waitFor(new RegExp(`${id}  ACCEPTED`));
    await session.keys('q');
    await session.waitFor(/exit status 0/);
  }, E2E_TEST_LIMIT_MS);
});
