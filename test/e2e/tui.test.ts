import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { CLEAR_SCREEN } from '../helpers/terminal.js';
import { E2E_TEST_LIMIT_MS, TmuxSession } from '../helpers/tmux.js';
import { selectImage, stepNineChecks } from '../helpers/workbench-keys.js';

/** The run ended without its valid bug: no valid one, cancelled, or stopped with an error. */
const RUN_ENDED_OTHERWISE = /1\/1 done, 0 valid|1 cancelled|The run stopped:/;

let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.kill();
});

describe('bugbench tui in a real terminal', () => {
  it('opens on the sample images, follows the arrow keys and quits on q', async () => {
    session = await TmuxSession.start(`CI=false node ${BIN} tui; echo "exit status $?"; sleep 30`);
    const first = await session.waitForState(/Repo images \(\d+\)/);
    expect(first).toMatch(/bugbench\/repo-\w+:latest/);
    const selected = (screen: string) => /› (\S+)/.exec(screen)?.[1];
    const before = selected(first);
    await session.keys('Down');
    const after = await session.waitFor(/› (\S+)/);
    await session.waitFor(new RegExp(`› (?!${before?.replace(/[/.]/g, '\\$&')})`));
    expect(selected(await session.screen())).not.toBe(before);
    expect(after).toContain('↑/↓ select');
    // esc never quits: it is still there; q quits, with the prompt on a line of its own.
    // Keys are read in order: once the Down after it has moved the cursor, esc has been read, and the screen is still there.
    await session.keys('Escape');
    await session.keys('Down');
    await session.waitFor(new RegExp(`› (?!${selected(after)?.replace(/[/.]/g, '\\$&')})`));
    expect(await session.screen()).toMatch(/Repo images/);
    await session.keys('q');
    await session.waitFor(/exit status 0/);
  });

  it('goes the whole journey at 80×24 — removal run, live tools, nine checks, solve, accept, Review, Training on the local Slurm — without clearing the screen', async () => {
    // A workspace of its own (an earlier test may have made the same bug), readable by the Slurm job's user.
    const home = mkdtempSync(join(tmpdir(), 'bugbench-e2e-'));
    chmodSync(home, 0o755);
    const raw = join(home, 'terminal.raw');
    session = await TmuxSession.start(`sleep 0.5; CI=false BUGBENCH_HOME=${home} node ${BIN} tui; echo "exit status $?"; sleep 30`, { columns: 80, rows: 24 });
    await session.record(raw);
    await session.waitForState(/Repo images \(\d+\)/);
    await selectImage(session, 'bugbench/repo-knotcfg:latest');
    await session.keys('Enter');
    await session.waitFor(/New injection run on bugbench\/repo-knotcfg:latest/);
    await session.waitFor(/› strategy +‹ removal ›/);
    // One bug, typed into the form (the 1 replaces the 3); 2 at a time then runs one rollout, as the CLI does.
    await session.keys('Down', '1');
    await session.waitFor(/at a time +2 runs 1: one rollout a bug/);
    await session.waitFor(/enter starts the run/);
    await session.keys('Enter');
    // Tool calls appear live, in the transcript of the focused rollout.
    await session.waitForState(/r1 +step \d+/);
    await session.waitForState(/[▶✓] bash /);
    const done = await session.waitForState(/1\/1 done, 1 valid/, RUN_ENDED_OTHERWISE);
    expect(done).toMatch(/✓✓✓✓✓✓✓✓✓ VALID/);
    const id = /(knotcfg-removal-[0-9a-f]{8})/.exec(done)![1]!;

    // Enter opens the bug on Review; 4 steps through its nine checks, one key each; s solves it.
    await session.keys('Enter');
    await session.waitFor(new RegExp(`${id}  VALID`));
    await session.keys('4');
    await session.waitFor(new RegExp(`${id} VALID · order 1`));
    const checks = await stepNineChecks(session);
    for (const name of ['test-files', 'parser', 'test-script', 'determinism', 'bug-scope', 'bug-validity', 'test-weakening', 'inverse-mutation', 'gold-patch']) {
      expect(checks).toMatch(new RegExp(`✓ ${name}`));
    }
    await session.keys('s');
    await session.waitForState(/solving 8\/8 · solve rate [\d.]+ · injection reward -?[\d.]+/);

    // Accepted on Review, and found there among the accepted bugs.
    await session.keys('5');
    await session.waitFor(/\[5 Review\]/);
    await session.keys('a');
    await session.waitFor(new RegExp(`${id}  ACCEPTED`));
    for (let i = 0; i < 5; i++) await session.keys('f');
    await session.waitFor(/status accepted/);
    expect(await session.screen()).toMatch(/›knotcfg-removal-[0-9a-f…]+ accepted/);

    // Training: n opens the form, enter submits the accepted bug to the local Slurm; the job succeeds.
    await session.keys('6');
    await session.waitFor(/\[6 Training\]/);
    await session.keys('n');
    await session.waitFor(/engine +‹ slurm ›/);
    await session.keys('Enter');
    const job = await session.waitForState(/slurm-\d+ +succeeded/, /slurm-\d+ +(failed|cancelled)/);
    expect(job).toMatch(/dry run: read 1 swebench record/);

    await session.keys('q');
    const end = await session.waitFor(/exit status 0/);
    // The shell's next line starts on a line of its own, below the last frame.
    expect(end).toMatch(/\n\s*\nexit status 0/);
    const output = readFileSync(raw, 'latin1');
    const firstFrame = output.indexOf('bugbench');
    expect(firstFrame).toBeGreaterThanOrEqual(0);
    expect(output.slice(firstFrame).split(CLEAR_SCREEN).length - 1).toBe(0);
  }, E2E_TEST_LIMIT_MS);

  it('cancels a running injection on Ctrl-C, removes its containers and exits 130', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-e2e-'));
    session = await TmuxSession.start(`CI=false BUGBENCH_HOME=${home} node ${BIN} tui; echo "exit status $?"; sleep 30`, { columns: 80, rows: 24 });
    await session.waitForState(/Repo images \(\d+\)/);
    await session.keys('Enter');
    await session.waitFor(/enter starts the run/);
    await session.keys('Enter');
    await session.waitForState(/r\d +step \d+/);
    await session.keys('C-c');
    await session.waitFor(/exit status 130/, 30_000);
    // The run is recorded as cancelled, and none of its containers is left.
    const runs = JSON.parse((await execa('node', [BIN, 'runs', '--json'], { env: { BUGBENCH_HOME: home } })).stdout) as { id: string; status: string }[];
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).toBe('cancelled');
    const { stdout } = await execa('docker', ['ps', '-a', '--filter', 'label=bugbench.run', '--format', '{{.Label "bugbench.run"}}']);
    expect(stdout.split('\n').filter((label) => label.startsWith(runs[0]!.id))).toEqual([]);
  }, E2E_TEST_LIMIT_MS);

  it('refuses to start without a terminal, in one line', async () => {
    const { bugbench } = await import('../helpers/cli.js');
    const result = await bugbench(['tui']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(
      'bugbench: tui needs an interactive terminal; use the headless commands (see `bugbench --help`) in scripts',
    );
  });
});
