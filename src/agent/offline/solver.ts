/**
 * The offline solvers: scripted agents that repair a bug through the same
 * tools as a model, deterministic for a seed, so solve rates and higher-order
 * bugs can be shown without an API key. They are handed the bug's fix (the
 * gold patch) by bugbench — they stand in for solvers of known skill:
 *   oracle  — applies the whole fix (solves);
 *   partial — applies some hunks of one file of the fix, perhaps with other
 *             files whole (fails, leaving a half-repaired state behind);
 *   noop    — looks around and changes nothing (fails).
 * `mix` gives a run's attempts a seeded, balanced shuffle of the three.
 */
import { formatDiffFiles, parseDiffFiles } from '../../bugs/diff.js';
import { hereDoc, shellQuote } from '../../sandbox/shell-text.js';
import type { Action, Observation, ScriptedAgent, ToolCall } from './offline-model.js';
import type { Rng } from './rng.js';

export const OFFLINE_SOLVERS = ['oracle', 'partial', 'noop'] as const;
export type OfflineSolver = (typeof OFFLINE_SOLVERS)[number];
export type SolverChoice = OfflineSolver | 'mix';
export const SOLVER_CHOICES: SolverChoice[] = [...OFFLINE_SOLVERS, 'mix'];

/** The solver of each of `k` attempts: the choice itself, or for `mix` each variant in turn, shuffled. */
export function solverPlan(choice: SolverChoice, k: number, rng: Rng): OfflineSolver[] {
  if (choice !== 'mix') return Array.from({ length: k }, () => choice);
  return rng.shuffle(Array.from({ length: k }, (_, i) => OFFLINE_SOLVERS[i % OFFLINE_SOLVERS.length]!));
}

/**
 * Part of a fix, as a solver that got somewhere but not all the way leaves it:
 * some hunks of one file of the fix (so that file stays half-repaired, the
 * new buggy state a higher-order bug is made of), with or without the whole
 * fix of some other files. When no file has two hunks, a strict subset of the
 * files; empty when the fix is one hunk and cannot be split.
 */
export function partOfFix(fix: string, rng: Rng): string {
  const files = parseDiffFiles(fix);
  const splittable = files.filter((f) => f.hunks.length >= 2);
  if (splittable.length > 0) {
    const half = splittable[rng.int(splittable.length)]!;
    const keep = new Set(rng.shuffle([...half.hunks.keys()]).slice(0, 1 + rng.int(half.hunks.length - 1)));
    const others = rng.shuffle(files.filter((f) => f !== half));
    const whole = others.slice(0, rng.int(others.length + 1));
    return formatDiffFiles([{ ...half, hunks: half.hunks.filter((_, i) => keep.has(i)) }, ...whole]);
  }
  if (files.length >= 2) {
    const keep = 1 + rng.int(files.length - 1);
    return formatDiffFiles(rng.shuffle(files).slice(0, keep));
  }
  return '';
}

export interface SolverOptions {
  kind: OfflineSolver;
  rng: Rng;
  /** The bug's fix, as a diff of the code from the starting state. */
  fix: string;
  /** The oracle tests as a diff, when the statement is the template around them (the solver applies it to see them fail). */
  oracleTests?: string;
}

const bash = (command: string, timeout?: number): ToolCall => ({ name: 'bash', input: timeout ? { command, timeout } : { command } });

/** How the repository runs its tests, by what its root holds: go test, the package's npm test, or pytest. */
type Runner = 'go' | 'npm' | 'pytest';

function runnerOf(listing: string): Runner {
  const names = new Set(listing.split('\n').map((l) => l.trim()));
  return names.has('go.mod') ? 'go' : names.has('package.json') ? 'npm' : 'pytest';
}

/** Runs the tests of some files (all when none) with the repository's runner, as an agent would, showing the tail. */
function runTests(runner: Runner, files: string[]): string {
  if (runner === 'go') {
    const packages = [...new Set(files.map((f) => (f.includes('/') ? `./${f.slice(0, f.lastIndexOf('/'))}` : '.')))];
    return `go test -count=1 ${packages.length > 0 ? packages.join(' ') : './...'} 2>&1 | tail -n 15`;
  }
  // The package's own test script decides what runs (and compiles what it must first).
  if (runner === 'npm') return 'npm test 2>&1 | tail -n 15';
  const targets = files.map(shellQuote).join(' ');
  return `[ -d src ] && export PYTHONPATH=src; python3 -m pytest -q -rA -p no:cacheprovider ${targets} 2>&1 | tail -n 15`;
}

export async function* offlineSolver(options: SolverOptions): ScriptedAgent {
  const ask = async function* (thought: string, ...calls: ToolCall[]): AsyncGenerator<Action, Observation[], Observation[]> {
    return yield { thought, calls };
  };
  const first = yield* ask('First, the state of the repository and its layout.', bash('git log --oneline | head -n 3; git status --short | head -n 20; ls'));
  const runner = runnerOf(first[0]?.output ?? '');
  // With the oracle tests in hand, put them in and watch them fail; with a report, run the suite.
  const testFiles = options.oracleTests ? parseDiffFiles(options.oracleTests).map((f) => f.newPath ?? f.oldPath ?? '') : [];
  if (options.oracleTests) {
    const doc = hereDoc(options.oracleTests);
    yield* ask('The task gives the tests the code must pass. I will add them and run them to see what fails.', bash(`git apply --whitespace=nowarn ${doc.open}
${doc.body}
${runTests(runner, testFiles)}`, 600));
  } else {
    yield* ask('I will run the test suite to see what fails.', bash(runTests(runner, []), 600));
  }
  const patch = options.kind === 'oracle' ? options.fix : options.kind === 'partial' ? partOfFix(options.fix, options.rng) : '';
  const files = parseDiffFiles(patch).map((f) => f.newPath ?? f.oldPath ?? '');
  if (patch === '') {
    yield* ask('I do not see what to change from here; I leave the code as it is.', bash('git diff --stat'));
  } else {
    const doc = hereDoc(patch);
    const applied = yield* ask(
      `The failures point at ${files.join(', ')}. I will restore the behaviour the tests expect there.`,
      bash(`git apply --whitespace=nowarn ${doc.open}
${doc.body}
git diff --stat`),
    );
    if (applied[0]?.output.includes('error:')) return `My change did not apply: ${applied[0].output.slice(0, 200)}`;
    yield* ask('Running the tests again with my change.', bash(runTests(runner, testFiles), 600));
  }
  const submitted = yield* ask('Submitting my changes.', { name: 'submit', input: {} });
  return submitted[0]?.isError ? `The submission was refused: ${submitted[0].output}` : 'Submitted.';
}
