/**
 * One bug as the files of a Harbor task folder (Harbor's task format:
 * harborframework.com/docs/tasks). Pure: everything read from the store or
 * the image comes in as arguments.
 *
 *   instruction.md          the task text the solver gets (template or bug report)
 *   task.toml               name, limits, resources, no internet, provenance
 *   environment/Dockerfile  FROM the repo image (an adopted image by its own name); the
 *                           starting state at its root, as its user, history scrubbed
 *   environment/setup.sh    the script that builds it (the `rl` export's setup script)
 *   solution/solve.sh       applies solution/fix.diff (Harbor's oracle agent runs it)
 *   tests/test.sh           Harbor's verifier entry: runs tests/verify.py
 *   tests/verify.py         puts the tests back, runs them, writes the reward
 *   tests/spec.json         FAIL_TO_PASS, PASS_TO_PASS, limits, what to put back
 *   tests/test_script.sh, tests/test_parser.py   the artifact's
 *   tests/oracle/…          the test files the verifier writes back
 */
import { renderPrompt } from '../../agent/prompts.js';
import type { BugMaterial } from '../materials.js';
import { settableEnv, setupScript, shellPath } from '../task-scripts.js';
import type { TestFiles } from './test-files.js';
import { harborTaskName, PARSER_TIMEOUT_SEC, taskToml } from './task-toml.js';

export interface TaskFile {
  /** Relative to the task folder. */
  path: string;
  content: string | Buffer;
  mode?: number;
}

export interface HarborFacts {
  /** The id of the image the repo image's tag names now (checked against the bug's). */
  imageId: string;
  testFiles: TestFiles;
  /** tests/verify.py (data/harbor/verify.py). */
  verifier: string;
}

/** The folder a task gets inside the export: the part of its Harbor name after `bugbench/`. */
export function taskFolder(bugId: string): string {
  return harborTaskName(bugId).slice('bugbench/'.length);
}

export function instruction(m: BugMaterial): string {
  return `${renderPrompt('harbor-instruction', { repo_root: m.world.root, issue: m.problemStatement.trimEnd() })}\n`;
}

/** A value as a Dockerfile ENV takes it: in double quotes, with `\`, `"` and `$` (which ENV would expand) escaped. */
const envValue = (value: string) => `"${value.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;

/**
 * What an adopted image adds to the Dockerfile: the variables its login shell
 * sets (Harbor runs `bash -c`, which reads no profile: a SWE-bench image's
 * conda environment would be missing), and the user `--user` chose instead of
 * the image's own. bugbench's own images need neither.
 */
function adoptedWorld(m: BugMaterial): string[] {
  if (!m.adopted) return [];
  const env = settableEnv(m.world.env).filter(([, value]) => !value.includes('\n'));
  return [
    ...(env.length > 0 ? ['# What the image\'s login shell sets, for the agent and the verifier.', `ENV ${env.map(([name, value]) => `${name}=${envValue(value)}`).join(' \\\n    ')}`] : []),
    ...(m.world.user ? [`USER ${m.world.user}`] : []),
  ];
}

export function dockerfile(m: BugMaterial, imageId: string): string {
  const r = m.record;
  const { root, uid, gid } = m.world;
  // The image's user builds the starting state, so that it owns the repository it works in and may remove the script.
  const copy = uid === 0 ? 'COPY' : `COPY --chown=${uid}:${gid}`;
  return [
    `# The starting state of bugbench bug ${r.id}, as its solvers get it:`,
    `# the original code with the bug${r.order > 1 ? ", the parent's failed repair" : ''} and the weakened tests,`,
    '# and a repository of one commit in place of the history (setup.sh).',
    '# It needs nothing but the repo image to build.',
    `# Repo image ${m.image} (image id ${imageId}), original commit ${r.baseCommit}.`,
    `FROM ${m.image}`,
    `LABEL bugbench.bug="${r.id}" bugbench.image-id="${imageId}"`,
    'ENV PYTHONDONTWRITEBYTECODE=1',
    ...adoptedWorld(m),
    `${copy} setup.sh /tmp/bugbench-setup.sh`,
    'RUN bash /tmp/bugbench-setup.sh && rm -f /tmp/bugbench-setup.sh',
    `WORKDIR ${root}`,
    '',
  ].join('\n');
}

export function solveScript(m: BugMaterial): string {
  const what = m.record.order > 1 ? 'the gold patch of this higher-order bug' : 'the reverse of the injected bug';
  return [
    '#!/bin/bash',
    `# The reference fix of bugbench bug ${m.record.id}: ${what}, applied to ${m.world.root}.`,
    'set -euo pipefail',
    `cd ${shellPath(m.world.root)}`,
    'git apply --whitespace=nowarn "$(dirname "$(readlink -f "$0")")/fix.diff"',
    '',
  ].join('\n');
}

export const TEST_SH = [
  '#!/bin/bash',
  "# bugbench's verifier: puts the oracle tests back, runs them and writes /logs/verifier/reward.txt",
  '# (1 iff every FAIL_TO_PASS and PASS_TO_PASS test passes); see verify.py beside this file.',
  'mkdir -p /logs/verifier',
  'echo 0 > /logs/verifier/reward.txt',
  'python3 "$(dirname "$(readlink -f "$0")")/verify.py"',
  'exit 0',
  '',
].join('\n');

export function verifierSpec(m: BugMaterial, files: TestFiles) {
  return {
    bug_id: m.record.id,
    repo_dir: m.world.root,
    fail_to_pass: m.failToPass,
    pass_to_pass: m.passToPass,
    flaky: m.flaky,
    test_timeout_sec: m.testTimeoutSec,
    parser_timeout_sec: PARSER_TIMEOUT_SEC,
    clear: files.clear,
    files: files.files.map((f) => ('link' in f ? { path: f.path, link: f.link } : { path: f.path, mode: f.mode })),
    keep: files.keep,
  };
}

const withNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

export function harborTaskFiles(m: BugMaterial, facts: HarborFacts): TaskFile[] {
  const oracle = facts.testFiles.files.flatMap((f) => ('content' in f ? [{ path: `tests/oracle/${f.path}`, content: f.content, mode: parseInt(f.mode, 8) }] : []));
  return [
    { path: 'instruction.md', content: instruction(m) },
    { path: 'task.toml', content: taskToml(m, facts.imageId) },
    { path: 'environment/Dockerfile', content: dockerfile(m, facts.imageId) },
    { path: 'environment/setup.sh', content: setupScript(m), mode: 0o755 },
    { path: 'solution/solve.sh', content: solveScript(m), mode: 0o755 },
    { path: 'solution/fix.diff', content: withNewline(m.fixPatch) },
    { path: 'tests/test.sh', content: TEST_SH, mode: 0o755 },
    { path: 'tests/verify.py', content: facts.verifier },
    { path: 'tests/spec.json', content: `${JSON.stringify(verifierSpec(m, facts.testFiles), null, 2)}\n` },
    { path: 'tests/test_script.sh', content: m.testScript, mode: 0o755 },
    { path: 'tests/test_parser.py', content: m.testParser },
    ...oracle,
  ];
}
