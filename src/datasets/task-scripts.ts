/**
 * Self-contained bash scripts for a task: one builds the solver's starting
 * state in /repo of the task's image (original → bug → weakening → parent
 * prediction, then a fresh repository of one commit, as SPEC §5 says); one
 * evaluates a candidate patch from a fresh container of the image and prints
 * the parsed test map. Every diff and script travels inside them, so a
 * trainer needs nothing but the image and the line of the dataset.
 */
import { SCRUB_HISTORY } from '../pipeline/starting-state.js';
import { hereDoc, shellQuote } from '../sandbox/shell-text.js';

export interface TaskMaterial {
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

/** The lines that put /repo at the original commit and apply the task's diffs, stopping at the first that fails. */
function buggyState(task: TaskMaterial): string[] {
  const lines = ['cd /repo', `git reset -q --hard ${quote(task.baseCommit)}`, 'git clean -q -fd'];
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
 * solver's container is made (SCRUB_HISTORY).
 */
export function setupScript(task: TaskMaterial): string {
  return [
    '#!/bin/bash',
    '# Builds the starting state of a bugbench task in /repo: its history is replaced by one commit.',
    'set -euo pipefail',
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
