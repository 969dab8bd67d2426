/**
 * Two versions of some files, read in a bug's container with git alone: as
 * in the base commit, and with a diff applied on top (in a scratch index, so
 * the work tree and the runs under way are left alone). Each version is read
 * up to a limit; a file missing on one side has no version there.
 */
import { shellQuote, type Sandbox } from '../sandbox/sandbox.js';

/** Configuration files are small; a longer one is compared by its first megabyte. */
const MAX_VERSION_BYTES = 1024 * 1024;

export interface FileVersions {
  before?: string;
  after?: string;
}

/** The versions of `paths`, or undefined when the diff does not apply to the base commit. */
export function versionsAcrossDiff(sandbox: Sandbox, base: string, diffFile: string, paths: string[]): Promise<Map<string, FileVersions> | undefined> {
  return versionsAcrossDiffs(sandbox, base, { under: [], diff: diffFile }, paths);
}

/**
 * The versions of `paths` before and after `diff`, where "before" is the base
 * commit with the `under` diffs applied in order (empty ones skipped by the
 * caller); undefined when a diff does not apply.
 */
export async function versionsAcrossDiffs(sandbox: Sandbox, base: string, layers: { under: string[]; diff: string }, paths: string[]): Promise<Map<string, FileVersions> | undefined> {
  if (paths.length === 0) return new Map();
  const b = shellQuote(base);
  // One line per version: base64 of its first bytes, or "-" when the file does not exist on that side.
  const read = (spec: string, git: string) =>
    `if ${git} cat-file -e ${spec} 2>/dev/null; then ${git} show ${spec} | head -c ${MAX_VERSION_BYTES} | base64 -w0; else printf -; fi; echo`;
  const scratch = 'GIT_INDEX_FILE=$idx git';
  const beforeTree = layers.under.length === 0 ? b : '$before';
  const script = [
    'set -e',
    'idx=$(mktemp); trap \'rm -f "$idx"\' EXIT',
    `${scratch} read-tree ${b}`,
    ...layers.under.map((d) => `${scratch} apply --cached ${shellQuote(d)}`),
    ...(layers.under.length > 0 ? [`before=$(${scratch} write-tree)`] : []),
    `${scratch} apply --cached ${shellQuote(layers.diff)}`,
    ...paths.flatMap((p) => [read(`${beforeTree}:${shellQuote(p)}`, 'git'), read(`:${shellQuote(p)}`, scratch)]),
  ].join('\n');
  const result = await sandbox.exec(script, { timeoutMs: 60_000, maxOutputBytes: paths.length * 3 * MAX_VERSION_BYTES + 1024 });
  if (result.exitCode !== 0 || result.timedOut) return undefined;
  const lines = result.stdout.split('\n');
  const decode = (line: string | undefined) => (line === undefined || line === '-' ? undefined : Buffer.from(line, 'base64').toString('utf8'));
  return new Map(paths.map((p, i) => [p, { before: decode(lines[2 * i]), after: decode(lines[2 * i + 1]) }]));
}
