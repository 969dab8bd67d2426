/**
 * The workbench on an image bugbench did not build (issue 29, item 1): a
 * SWE-bench look-alike (repository at /testbed, the interpreter only in the
 * environment its login shell activates, history past HEAD) is adopted with
 * `a` on the Images screen, listed as adopted at /testbed, and a removal run
 * from the Run form with the offline policy makes a valid bug on it.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { buildSwebenchLookalike } from '../helpers/lookalike-images.js';
import { fits } from '../helpers/terminal.js';
import { E2E_TEST_LIMIT_MS, TmuxSession } from '../helpers/tmux.js';

// A tag of its own: other files build and remove the look-alike under its default name.
const SWEB = 'sweb.eval.x86_64.knotcfg__knotcfg-tui:latest';
const SIZE = { columns: 80, rows: 24 };

/** The run ended without its valid bug: no valid one, cancelled, or stopped with an error. */
const RUN_ENDED_OTHERWISE = /1\/1 done, 0 valid|1 cancelled|The run stopped:/;
/** The adoption refused. */
const ADOPTION_REFUSED = /cannot adopt|does not exist/;

let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.kill();
});

describe('bugbench tui on an image it did not build', () => {
  beforeAll(async () => {
    await buildSwebenchLookalike(SWEB);
  }, 300_000);

  afterAll(() => {
    // The image and the snapshot its adoption made (sandbox/adopt.ts names it bugbench/adopted-<name>:<id>).
    execSync(`docker rmi -f ${SWEB} $(docker images -q --filter reference='bugbench/adopted-${SWEB.split(':')[0]}') >/dev/null 2>&1 || true`);
  });

  it('adopts a SWE-bench look-alike with a and makes a valid bug on it offline at 80×24', async () => {
    // A workspace of its own: the image is adopted here, whatever other workspaces hold.
    const home = mkdtempSync(join(tmpdir(), 'bugbench-e2e-adopt-'));
    session = await TmuxSession.start(`sleep 0.5; CI=false ANTHROPIC_API_KEY= OPENAI_BASE_URL= BUGBENCH_HOME=${home} node ${BIN} tui; echo "exit status $?"; sleep 30`, SIZE);
    await session.waitForState(/Repo images \(\d+\)/);
    expect(await session.screen()).toMatch(/a adopt/);

    await session.keys('a');
    await session.waitFor(/adopt the image named:/);
    await session.keys(SWEB);
    await session.waitFor(/knotcfg-tui:latest/);
    await session.keys('Enter');
    // Looking at the image, removing its history past HEAD and making its snapshot take a while: wait for the state.
    const adopted = await session.waitForState(/it is selected/, ADOPTION_REFUSED);
    expect(adopted.replace(/\n\s*/g, ' ')).toContain(`adopted ${SWEB} (repository at /testbed); it is selected`);
    // Its row says it is adopted and where its repository is; the details box, as whom it runs.
    expect(adopted).toMatch(/^› sweb\.eval\.\S* +knotcfg +python +adopted \/testbed +[0-9a-f]{10} 0 valid/m);
    expect(adopted.replace(/[│\n]\s*/g, ' ').replace(/\s+/g, ' ')).toContain(`adopted ${SWEB} as it is: repository at /testbed, runs as root`);
    const { widest, lines } = fits(adopted, SIZE);
    expect(widest).toBeLessThanOrEqual(SIZE.columns);
    expect(lines).toBeLessThanOrEqual(SIZE.rows);

    // A removal run of one bug on it, offline.
    await session.keys('Enter');
    await session.waitFor(new RegExp(`New injection run on ${SWEB.replace(/[/.]/g, '\\$&')}`));
    await session.waitFor(/› strategy +‹ removal › offline/);
    await session.keys('Down', '1');
    await session.waitFor(/at a time +2 runs 1: one rollout a bug/);
    await session.waitFor(/enter starts the run/);
    await session.keys('Enter');
    await session.waitForState(/[▶✓] (bash|editor) /);
    const done = await session.waitForState(/1\/1 done, 1 valid/, RUN_ENDED_OTHERWISE);
    expect(done).toMatch(/✓✓✓✓✓✓✓✓✓ VALID/);
    expect(done).toMatch(/knotcfg-removal-[0-9a-f]{8}/);

    await session.keys('q');
    await session.waitFor(/exit status 0/);
  }, E2E_TEST_LIMIT_MS);
});
