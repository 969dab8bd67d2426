/**
 * What a Harbor task's verifier puts back before the tests run, read from
 * the repo image: the oracle test files at their original version (the agent's
 * container holds no history to restore them from, so they travel in tests/)
 * and the rest of the test infrastructure — conftest.py, runner configuration,
 * everything under a test folder — as the agent found it. The choice of files
 * is pure (`chooseTestFiles`); reading them is the effect (`readTestFiles`).
 */
import { isTestInfrastructure, mayHoldTestConfig } from '../../bugs/test-infrastructure.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { shellQuote } from '../../sandbox/shell-text.js';
import { ExportSkip } from '../materials.js';

/** A file as the verifier writes it back: its bytes and mode, or the target of a link. */
export type RestoredFile = { path: string; content: Buffer; mode: string } | { path: string; link: string };

export interface TestFiles {
  /** Removed before anything is written back: the oracle test files as test_files.txt lists them. */
  clear: string[];
  files: RestoredFile[];
  /** Test infrastructure the verifier leaves alone: ignored by git (a dependency's tests), or a config file the fix itself changes. */
  keep: string[];
}

export interface StartingListing {
  /** Files of the starting state that git does not ignore. */
  tracked: string[];
  /** Files git ignores (dependencies, caches). */
  ignored: string[];
}

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/**
 * Which files of the starting state the verifier writes back (`restore`) and
 * which it leaves (`keep`): test infrastructure by name, configuration files
 * that may hold the runner's settings unless the fix changes them, and none
 * under an oracle test path (those come back at their original version).
 */
export function chooseTestFiles(listing: StartingListing, testFiles: string[], fixPaths: string[]): { restore: string[]; keep: string[] } {
  const oracle = (p: string) => testFiles.some((t) => within(p, t));
  const fixed = new Set(fixPaths);
  const infrastructure = (p: string) => isTestInfrastructure(p) || mayHoldTestConfig(p);
  const restore: string[] = [];
  const keep: string[] = [];
  for (const path of listing.tracked) {
    if (oracle(path) || !infrastructure(path)) continue;
    (mayHoldTestConfig(path) && fixed.has(path) ? keep : restore).push(path);
  }
  for (const path of listing.ignored) if (!oracle(path) && infrastructure(path)) keep.push(path);
  return { restore: [...new Set(restore)].sort(), keep: [...new Set(keep)].sort() };
}

/** Lines of records: kind, mode, base64 path, base64 content (O/L: original blob or link; S/T: starting-state file or link). */
export function parseRecords(stdout: string): RestoredFile[] {
  const files: RestoredFile[] = [];
  for (const line of stdout.split('\n')) {
    if (line === '') continue;
    const [kind, mode, path64, content64 = ''] = line.split('\t');
    const path = Buffer.from(path64 ?? '', 'base64').toString('utf8');
    const content = Buffer.from(content64, 'base64');
    if (kind === 'L' || kind === 'T') files.push({ path, link: content.toString('utf8') });
    else if (kind === 'O' || kind === 'S') files.push({ path, content, mode: mode!.slice(-3) });
  }
  return files;
}

const PATHS_FILE = '/tmp/bugbench-harbor-paths';
/** Test files bigger than this in all are refused rather than read half. */
const MAX_TEST_BYTES = 256 * 1024 * 1024;

/** The starting state's files, listed in a container where it stands at the repository's root. */
export async function listStartingState(sandbox: Sandbox): Promise<StartingListing> {
  const list = async (args: string) => {
    const result = await sandbox.exec(`git ls-files -z ${args}`, { timeoutMs: 120_000, maxOutputBytes: 64 * 1024 * 1024 });
    if (result.exitCode !== 0 || result.truncated) throw new ExportSkip(`listing the starting state's files failed: ${result.stderr.trim().slice(-300) || 'the list is over 64 MiB'}`);
    return result.stdout.split('\0').filter((p) => p !== '');
  };
  return { tracked: await list('-c -o --exclude-standard'), ignored: await list('-o -i --exclude-standard') };
}

/**
 * Reads the oracle test files at `base` and the starting state's `restore`
 * files from the work tree, in a container where the starting state stands
 * at the repository's root (and git still has the original history).
 */
export async function readTestFiles(sandbox: Sandbox, base: string, testFiles: string[], restore: string[]): Promise<RestoredFile[]> {
  await sandbox.writeFile(`${PATHS_FILE}-oracle`, testFiles.map((p) => `${p}\0`).join(''));
  await sandbox.writeFile(`${PATHS_FILE}-start`, restore.map((p) => `${p}\0`).join(''));
  const script = [
    'set -eo pipefail',
    'b64() { base64 -w0; }',
    `xargs -0 -r git ls-tree -r -z ${shellQuote(base)} -- < ${PATHS_FILE}-oracle | while IFS= read -r -d '' entry; do`,
    '  meta=${entry%%$\'\\t\'*}; path=${entry#*$\'\\t\'}; read -r mode type sha <<< "$meta"',
    '  [ "$type" = blob ] || continue',
    '  if [ "$mode" = 120000 ]; then kind=L; else kind=O; fi',
    '  printf \'%s\\t%s\\t%s\\t%s\\n\' "$kind" "$mode" "$(printf %s "$path" | b64)" "$(git cat-file blob "$sha" | b64)"',
    'done',
    `while IFS= read -r -d '' p; do`,
    '  if [ -L "$p" ]; then printf \'T\\t-\\t%s\\t%s\\n\' "$(printf %s "$p" | b64)" "$(printf %s "$(readlink -- "$p")" | b64)"',
    '  elif [ -f "$p" ]; then printf \'S\\t%s\\t%s\\t%s\\n\' "$(stat -c %a -- "$p")" "$(printf %s "$p" | b64)" "$(b64 < "$p")"; fi',
    `done < ${PATHS_FILE}-start`,
  ].join('\n');
  const result = await sandbox.exec(script, { timeoutMs: 300_000, maxOutputBytes: Math.ceil((MAX_TEST_BYTES * 4) / 3) });
  if (result.truncated) throw new ExportSkip(`its test files are over ${MAX_TEST_BYTES / 1024 / 1024} MiB in all`);
  if (result.exitCode !== 0) throw new ExportSkip(`reading its test files failed: ${result.stderr.trim().slice(-300)}`);
  return parseRecords(result.stdout);
}
