/**
 * Offline injection on images laid out by other families, taken as they are:
 * a Multi-SWE-bench Go image with no python3 at all (the agent reads its runs
 * itself; valid bugs, a solve, an order-2 bug, exports), and an R2E-Gym image
 * whose packages live only in a virtual environment inside its work tree
 * (that the login shell's PATH would hide behind the system's python3).
 * Each test removes the images and adoption snapshots it made.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bugbench as run } from '../helpers/cli.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { buildMultiSwebenchGoLookalike, buildR2eGymLookalike, FUTURE_MARKER, removeAdoptions } from '../helpers/lookalike-images.js';

const GO_IMAGE = 'mswebench/example_m_ratekit:pr-families';
const R2E_IMAGE = 'namanjain12/slotsmith_final:families';
const HOME = mkdtempSync(join(tmpdir(), 'bugbench-families-'));
const bugbench = (args: string[], options: { timeout?: number } = {}) => run(args, { ...options, env: { BUGBENCH_HOME: HOME } });
const json = async (...args: string[]) => {
  const result = await bugbench([...args, '--json'], { timeout: 900_000 });
  expect(result.exitCode, result.stderr.slice(-3000)).toBe(0);
  return JSON.parse(result.stdout);
};

/** Every bash command of a trajectory (JSONL of events). */
function bashCommands(trajectory: string): string[] {
  return readFileSync(trajectory, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      const event = JSON.parse(line) as { type?: string; name?: string; input?: { command?: string } };
      return event.type === 'tool-call-finished' && event.name === 'bash' && event.input?.command ? [event.input.command] : [];
    });
}

function filesHolding(text: string): string[] {
  try {
    return execSync(`grep -rlF ${JSON.stringify(text)} ${JSON.stringify(HOME)}`, { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

let goHead = '';
beforeAll(async () => {
  ({ head: goHead } = await buildMultiSwebenchGoLookalike(GO_IMAGE));
  await buildR2eGymLookalike(R2E_IMAGE);
}, 300_000);

afterAll(async () => {
  await removeAdoptions(HOME, [GO_IMAGE, R2E_IMAGE]);
});

describe('a Multi-SWE-bench Go image with no python3', () => {
  let bug = '';

  it('makes valid bugs offline: the agent runs no python3, and the parser it wrote for the artifact runs in bugbench\'s base', async () => {
    // One rollout: seed 11's first makes a valid bug here, and the solving and exports below need no second.
    const result = await json('inject', '--image', GO_IMAGE, '--strategy', 'removal', '--policy', 'offline', '-n', '1', '--seed', '11', ...INJECTION_TEST_FLAGS);
    const valid = result.bugs.filter((b: { valid: boolean }) => b.valid);
    expect(valid.length, JSON.stringify(result.rollouts, null, 1)).toBeGreaterThanOrEqual(1);
    bug = valid[0].id;
    const commands = bashCommands(valid[0].trajectory);
    expect(commands.some((c) => c.includes('== the results in original.log =='))).toBe(true);
    // The one mention: the look for an interpreter when the files are read.
    expect(commands.filter((c) => c.replace("command -v python3 > /dev/null || echo 'python3: not installed'", '').includes('python3'))).toEqual([]);
    const meta = JSON.parse(readFileSync(join(valid[0].artifactDir, 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({ baseCommit: goHead, image: { tag: GO_IMAGE } });
    const shown = await json('show', bug);
    expect(JSON.stringify(shown.checks)).toMatch(/it ran in a container of bugbench\/base:bookworm, as the image has no python3/);
  }, 900_000);

  it('is solved by the oracle and not by a no-op, and a failed partial repair makes a valid order-2 bug', async () => {
    const solved = await json('solve', bug, '-k', '3', '--solver', 'mix', '--seed', '4', '--policy', 'offline');
    const bySolver = Object.fromEntries(solved.attempts.map((a: { solver: string; solved: boolean }) => [a.solver, a.solved]));
    expect(bySolver).toMatchObject({ 'offline/oracle': true, 'offline/noop': false });
    const higher = await json('higher-order', bug);
    expect(higher.parent).toBe(bug);
    expect(higher.bugs.filter((b: { valid: boolean }) => b.valid).length, JSON.stringify(higher, null, 1)).toBeGreaterThanOrEqual(1);
  }, 900_000);

  it('exports rows that name the image and its root; Harbor, whose verifier needs python3, skips its bugs and says why', async () => {
    const rows = (await bugbench(['export', '--format', 'swebench', '--status', 'valid', '--image', GO_IMAGE, '--out', '-'])).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) expect(row).toMatchObject({ image_name: GO_IMAGE, base_commit: goHead });
    const rl = (await bugbench(['export', '--format', 'rl', '--status', 'valid', '--image', GO_IMAGE, '--out', '-'])).stdout.trim().split('\n').map((l) => JSON.parse(l));
    for (const row of rl) expect(row).toMatchObject({ image: GO_IMAGE, workdir: '/home/ratekit' });
    // Every bug skipped: nothing to write, so no folder is made and the export exits 1.
    const tasks = join(mkdtempSync(join(tmpdir(), 'bugbench-families-harbor-')), 'tasks');
    const exported = await bugbench(['export', '--format', 'harbor', '--status', 'valid', '--image', GO_IMAGE, '--out', tasks, '--json']);
    expect(exported.exitCode, exported.stderr).toBe(1);
    const harbor = JSON.parse(exported.stdout);
    expect(harbor).toMatchObject({ count: 0, written: false });
    expect(existsSync(tasks)).toBe(false);
    expect(harbor.skipped.length).toBe(rows.length);
    for (const skip of harbor.skipped) expect(skip.reason).toMatch(/has no python3, which a Harbor task's verifier \(tests\/verify\.py\) and parser run in; export it as swebench or rl rows/);
    expect(filesHolding(FUTURE_MARKER)).toEqual([]);
  }, 600_000);
});

describe('an R2E-Gym image: the packages only in a virtual environment inside /testbed', () => {
  it('keeps the image\'s PATH (its .venv before the system\'s python3) and makes valid bugs offline', async () => {
    const record = await json('images', 'add', R2E_IMAGE);
    expect(record).toMatchObject({ root: '/testbed', language: 'python' });
    // A login shell would find the system's python3 first, which has no pytest.
    expect(record.world.env.PATH ?? '').not.toMatch(/^\/usr\/local\/sbin/);
    const result = await json('inject', '--image', R2E_IMAGE, '--strategy', 'removal', '--policy', 'offline', '-n', '1', '--seed', '11', ...INJECTION_TEST_FLAGS);
    expect(result.bugs.filter((b: { valid: boolean }) => b.valid).length, JSON.stringify(result.rollouts, null, 1)).toBeGreaterThanOrEqual(1);
    expect(filesHolding(FUTURE_MARKER)).toEqual([]);
  }, 900_000);
});
