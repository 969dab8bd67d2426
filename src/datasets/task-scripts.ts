/**
 * Self-contained bash scripts for a task: one builds the solver's starting
 * state at the repository's root in the task's image (/repo in bugbench's
 * own; original → bug → weakening → parent prediction, then a fresh
 * repository of one commit, as SPEC §5 says); one evaluates a candidate patch
 * from a fresh container of the image and prints the parsed test map. Every
 * diff and script travels inside them, and the variables an adopted image's
 * login shell sets, so a trainer needs nothing but the image and the line of
 * the dataset.
 */
import { SCRUB_HISTORY } from '../bugs/starting-state.js';
import { KEEP_UNTRACKED, PAST_HEAD_REMOVAL } from '../sandbox/adopt.js';
import type { ImageWorld } from '../sandbox/sandbox.js';
import { hereDoc, shellQuote } from '../sandbox/shell-text.js';

export interface TaskMaterial {
  /** The image's world: the repository's root (/repo in bugbench's own), its user, what its login shell adds to the environment. */
  world: ImageWorld;
  /** The image was adopted: its repository may hold history past HEAD (branches, tags, stashes), removed first. */
  adopted: boolean;
  baseCommit: string;
  bugPatch: string;
  weakenPatch: string;
  predPatch: string | null;
  testFiles: string[];
  testScript: string;
  testParser: string;
  testTimeoutSec: number;
}

function writeFile(path: string, text: string): string {
  const doc = hereDoc(text);
  return `cat > ${path} ${doc.open}\n${doc.body}`;
}

const quote = shellQuote;
/** A path as a shell word: as it is when nothing in it needs quoting (so /repo reads as before), else quoted. */
export const shellPath = (path: string) => (/^[\w./-]+$/.test(path) ? path : quote(path));

/** The variables of `env` a shell (and a Dockerfile's ENV) can set: those whose name is a shell name. */
export function settableEnv(env: Record<string, string>): [string, string][] {
  return Object.entries(env).filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
}

/** The variables the image's login shell sets (a SWE-bench image's conda environment), for a plain `bash` to have them too. */
function environment(task: TaskMaterial): string[] {
  return settableEnv(task.world.env).map(([name, value]) => `export ${name}=${quote(value)}`);
}

/** The lines that put the repository at the original commit and apply the task's diffs, stopping at the first that fails. */
function buggyState(task: TaskMaterial): string[] {
  // An adopted image's untracked folders (a virtual environment in the work tree) outlive the clean, as in bugbench's own sandboxes.
  const keep = task.adopted ? ["# The image's untracked files stay, as bugbench kept them on adopting it.", ...KEEP_UNTRACKED] : [];
  const lines = [`cd ${shellPath(task.world.root)}`, ...keep, `git reset -q --hard ${quote(task.baseCommit)}`, 'git clean -q -fd'];
  const patches: [string, string | null][] = [
    ['bug', task.bugPatch],
    ['weaken', task.weakenPatch],
    ['pred', task.predPatch],
  ];
  for (const [name, patch] of patches) {
    if (!patch || patch.trim() === '') continue;
    lines.push(writeFile(`/tmp/bugbench-${name}.diff`, patch), `git apply --whitespace=nowarn /tmp/bugbench-${name}.diff`);
  }
  return lines;
}

/**
 * Builds the solver's starting state: the buggy code, no history, and none of
 * the diffs left behind (the bug's diff is the answer), exactly as the
 * solver's container is made (SCRUB_HISTORY). An adopted image's history past
 * HEAD goes first, as its snapshot's did (PAST_HEAD_REMOVAL).
 */
export function setupScript(task: TaskMaterial): string {
  const pastHead = task.adopted ? [`cd ${shellPath(task.world.root)}`, '# The history past HEAD (branches, tags, stashes, remotes, reflogs), as bugbench removed it on adopting the image.', PAST_HEAD_REMOVAL] : [];
  return [
    '#!/bin/bash',
    `# Builds the starting state of a bugbench task in ${task.world.root}: its history is replaced by one commit.`,
    'set -euo pipefail',
    ...environment(task),
    ...pastHead,
    ...buggyState(task),
    'rm -f /tmp/bugbench-bug.diff /tmp/bugbench-weaken.diff /tmp/bugbench-pred.diff',
    ...SCRUB_HISTORY,
    '',
  ].join('\n');
}

/**
 * Evaluates the patch at $1 (default /tmp/candidate.diff) from a fresh
 * container of the image: buggy state, candidate, oracle test files restored,
 * tests run under the time limit, the parser's JSON map on stdout.
 */
export function evalScript(task: TaskMaterial): string {
  const restore = task.testFiles.map(
    (f) => `if git cat-file -e ${quote(task.baseCommit)}:${quote(f)} 2>/dev/null; then git checkout -q ${quote(task.baseCommit)} -- ${quote(f)}; else rm -rf -- ${quote(f)}; fi`,
  );
  return [
    '#!/bin/bash',
    '# Evaluates a candidate patch for a bugbench task; prints {test id: "passed"|"failed"} as JSON.',
    'set -euo pipefail',
    ...environment(task),
    'candidate="${1:-/tmp/candidate.diff}"',
    ...buggyState(task),
    'if [ -s "$candidate" ]; then git apply --whitespace=nowarn "$candidate"; fi',
    ...restore,
    'mkdir -p /tmp/bugbench-eval',
    writeFile('/tmp/bugbench-eval/test_script.sh', task.testScript),
    writeFile('/tmp/bugbench-eval/test_parser.py', task.testParser),
    `timeout -s KILL ${task.testTimeoutSec} bash /tmp/bugbench-eval/test_script.sh > /tmp/bugbench-eval/test.log 2>&1 || true`,
    'python3 /tmp/bugbench-eval/test_parser.py < /tmp/bugbench-eval/test.log',
    '',
  ].join('\n');
}
