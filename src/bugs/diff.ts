/**
 * Reading git diffs without applying them: which files a diff touches, whether
 * it is well formed, and whether every path stays inside the repository.
 */
import { BugbenchError } from '../errors.js';

export interface FileChange {
  /** Path before the change (undefined for a created file). */
  oldPath?: string;
  /** Path after the change (undefined for a deleted file). */
  newPath?: string;
  added: number;
  removed: number;
  binary: boolean;
}

/** A text that does not read as a git diff; what is wrong, with the line where it shows. */
export class DiffParseError extends BugbenchError {
  constructor(message: string) {
    super('BB_DIFF_PARSE', message);
  }
}

/** Undoes git's C-style quoting of a path ("a/caf\303\251.py"). */
function unquote(path: string): string {
  if (!path.startsWith('"')) return path;
  const inner = path.slice(1, -1);
  const bytes: number[] = [];
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = inner[++i]!;
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(inner.slice(i, i + 3), 8));
      i += 2;
    } else {
      const escapes: Record<string, number> = { n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 };
      bytes.push(escapes[next] ?? next.charCodeAt(0));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `a/x/y.py` → `x/y.py`; `/dev/null` → undefined. */
function stripPrefix(raw: string): string | undefined {
  const path = unquote(raw.trim().replace(/\t.*$/, ''));
  if (path === '/dev/null') return undefined;
  return path.replace(/^[ab]\//, '');
}

/** Splits `diff --git a/X b/Y` into its two paths (quoted or not). */
function gitHeaderPaths(line: string): [string, string] | undefined {
  const rest = line.slice('diff --git '.length);
  const quoted = /^("(?:[^"\\]|\\.)*")\s+("(?:[^"\\]|\\.)*")$/.exec(rest);
  if (quoted) return [quoted[1]!, quoted[2]!];
  // `git diff -R` writes the sides the other way round: b/… a/….
  const half = /^(a\/.*) (b\/.*)$/.exec(rest) ?? /^(b\/.*) (a\/.*)$/.exec(rest);
  if (half) return [half[1]!, half[2]!];
  return undefined;
}

/** One hunk: its header numbers, the text after the second `@@`, and its lines with their sign. */
export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  section: string;
  /** Each line with its first character: ' ' context, '-' removed, '+' added, '\\' a "No newline" marker. */
  lines: string[];
}

/** A file section of a diff, whole: the header lines before its hunks, and the hunks. */
export interface DiffFile extends FileChange {
  header: string[];
  hunks: Hunk[];
}

/** Parses a unified git diff into its files with their hunks. An empty diff has none. */
export function parseDiffFiles(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  if (text.trim() === '') return files;
  const lines = text.split('\n');
  let current: DiffFile | undefined;
  let hunk: Hunk | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  const blank = (): DiffFile => ({ added: 0, removed: 0, binary: false, header: [], hunks: [] });
  const finish = () => {
    if (current) files.push(current);
    current = undefined;
    hunk = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '' && i === lines.length - 1) break; // the newline that ends the text
    if (hunk && (oldLeft > 0 || newLeft > 0 || line.startsWith('\\'))) {
      const c = line[0];
      if (c === ' ' || line === '') {
        oldLeft--;
        newLeft--;
      } else if (c === '-') {
        oldLeft--;
        current!.removed++;
      } else if (c === '+') {
        newLeft--;
        current!.added++;
      } else if (c !== '\\') {
        throw new DiffParseError(`line ${i + 1}: hunk ends early (expected ${oldLeft} old and ${newLeft} new lines)`);
      }
      hunk.lines.push(line === '' ? ' ' : line);
      continue;
    }
    if (line.startsWith('diff --git ')) {
      finish();
      const paths = gitHeaderPaths(line);
      if (!paths) throw new DiffParseError(`line ${i + 1}: cannot read the paths of "${line}"`);
      current = { ...blank(), oldPath: stripPrefix(paths[0]), newPath: stripPrefix(paths[1]), header: [line] };
      continue;
    }
    if (line.startsWith('--- ')) {
      if (!current || current.hunks.length > 0) {
        finish();
        current = blank();
      }
      current.oldPath = stripPrefix(line.slice(4));
      current.header.push(line);
      continue;
    }
    if (line.startsWith('+++ ')) {
      if (!current) throw new DiffParseError(`line ${i + 1}: "+++" without a preceding "---"`);
      current.newPath = stripPrefix(line.slice(4));
      current.header.push(line);
      continue;
    }
    const numbers = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/.exec(line);
    if (numbers) {
      if (!current) throw new DiffParseError(`line ${i + 1}: hunk before any file header`);
      oldLeft = numbers[2] === undefined ? 1 : Number(numbers[2]);
      newLeft = numbers[4] === undefined ? 1 : Number(numbers[4]);
      hunk = { oldStart: Number(numbers[1]), oldCount: oldLeft, newStart: Number(numbers[3]), newCount: newLeft, section: numbers[5]!, lines: [] };
      current.hunks.push(hunk);
      continue;
    }
    hunk = undefined;
    if (!current) continue; // free text before the first header
    current.header.push(line);
    if (line.startsWith('new file mode')) current.oldPath = undefined;
    else if (line.startsWith('deleted file mode')) current.newPath = undefined;
    else if (line.startsWith('Binary files ') || line === 'GIT binary patch') current.binary = true;
    else if (line.startsWith('rename from ') || line.startsWith('copy from ')) current.oldPath = unquote(line.replace(/^(rename|copy) from /, ''));
    else if (line.startsWith('rename to ') || line.startsWith('copy to ')) current.newPath = unquote(line.replace(/^(rename|copy) to /, ''));
    // index lines, mode lines, similarity, binary payload
  }
  if (hunk && (oldLeft > 0 || newLeft > 0)) throw new DiffParseError('the last hunk is cut short');
  finish();
  if (files.length === 0) throw new DiffParseError('no file header ("diff --git" or "---"/"+++") found');
  for (const file of files) {
    if (file.oldPath === undefined && file.newPath === undefined) throw new DiffParseError('a file section names no file');
  }
  return files;
}

/** Parses a unified git diff into its file changes. An empty diff has none. */
export function parseDiff(text: string): FileChange[] {
  return parseDiffFiles(text).map(({ oldPath, newPath, added, removed, binary }) => ({ oldPath, newPath, added, removed, binary }));
}

/** The path a change is known by: its new path, else its old one. */
export function fileOf(change: FileChange): string {
  return change.newPath ?? change.oldPath ?? '?';
}

/** Every path a diff reads or writes. */
export function touchedPaths(changes: FileChange[]): string[] {
  const paths = new Set<string>();
  for (const c of changes) {
    if (c.oldPath !== undefined) paths.add(c.oldPath);
    if (c.newPath !== undefined) paths.add(c.newPath);
  }
  return [...paths];
}

/** Why a repository-relative path is unsafe, or undefined when it is fine. */
export function unsafePathReason(path: string): string | undefined {
  if (path === '') return 'an empty path';
  if (path.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(path)) return `"${path}" is absolute`;
  if (path.split(/[\\/]/).includes('..')) return `"${path}" leaves the repository`;
  if (path.includes('\0')) return `"${path}" contains a NUL byte`;
  if (path.split('/')[0] === '.git') return `"${path}" is inside .git`;
  return undefined;
}

/** A hunk's header line from its numbers (a count of 1 is left out, as git does). */
export function hunkHeader(oldStart: number, oldCount: number, newStart: number, newCount: number, section = ''): string {
  const side = (start: number, count: number) => `${start}${count === 1 ? '' : `,${count}`}`;
  return `@@ -${side(oldStart, oldCount)} +${side(newStart, newCount)} @@${section}`;
}

/** Files (or some of their hunks) back as diff text; `parseDiffFiles(formatDiffFiles(f))` gives `f` again. */
export function formatDiffFiles(files: DiffFile[]): string {
  if (files.length === 0) return '';
  const lines = files.flatMap((file) => [
    ...file.header,
    ...file.hunks.flatMap((h) => [hunkHeader(h.oldStart, h.oldCount, h.newStart, h.newCount, h.section), ...h.lines]),
  ]);
  return `${lines.join('\n')}\n`;
}
