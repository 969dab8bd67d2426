/**
 * Reading git diffs without applying them: which files a diff touches, whether
 * it is well formed, and whether every path stays inside the repository.
 */

export interface FileChange {
  /** Path before the change (undefined for a created file). */
  oldPath?: string;
  /** Path after the change (undefined for a deleted file). */
  newPath?: string;
  added: number;
  removed: number;
  binary: boolean;
}

export class DiffParseError extends Error {}

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
  const half = /^(a\/.*) (b\/.*)$/.exec(rest);
  if (half) return [half[1]!, half[2]!];
  return undefined;
}

/** Parses a unified git diff into its file changes. An empty diff has none. */
export function parseDiff(text: string): FileChange[] {
  const changes: FileChange[] = [];
  if (text.trim() === '') return changes;
  const lines = text.split('\n');
  let current: FileChange | undefined;
  let inHunk = false;
  let oldLeft = 0;
  let newLeft = 0;
  const finish = () => {
    if (current) changes.push(current);
    current = undefined;
    inHunk = false;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '' && i === lines.length - 1) break; // the newline that ends the text
    if (line.startsWith('diff --git ')) {
      finish();
      const paths = gitHeaderPaths(line);
      if (!paths) throw new DiffParseError(`line ${i + 1}: cannot read the paths of "${line}"`);
      current = { oldPath: stripPrefix(paths[0]), newPath: stripPrefix(paths[1]), added: 0, removed: 0, binary: false };
      continue;
    }
    if (inHunk && (oldLeft > 0 || newLeft > 0)) {
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
      } else if (c === '\\') {
        // "\ No newline at end of file"
      } else {
        throw new DiffParseError(`line ${i + 1}: hunk ends early (expected ${oldLeft} old and ${newLeft} new lines)`);
      }
      continue;
    }
    if (line.startsWith('--- ')) {
      if (!current || current.removed + current.added > 0) {
        finish();
        current = { added: 0, removed: 0, binary: false };
      }
      current.oldPath = stripPrefix(line.slice(4));
      continue;
    }
    if (line.startsWith('+++ ')) {
      if (!current) throw new DiffParseError(`line ${i + 1}: "+++" without a preceding "---"`);
      current.newPath = stripPrefix(line.slice(4));
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      if (!current) throw new DiffParseError(`line ${i + 1}: hunk before any file header`);
      inHunk = true;
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    if (line.startsWith('new file mode')) {
      if (current) current.oldPath = undefined;
      continue;
    }
    if (line.startsWith('deleted file mode')) {
      if (current) current.newPath = undefined;
      continue;
    }
    if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
      if (current) current.binary = true;
      continue;
    }
    if (current && (line.startsWith('rename from ') || line.startsWith('copy from '))) {
      current.oldPath = unquote(line.replace(/^(rename|copy) from /, ''));
      continue;
    }
    if (current && (line.startsWith('rename to ') || line.startsWith('copy to '))) {
      current.newPath = unquote(line.replace(/^(rename|copy) to /, ''));
      continue;
    }
    // index lines, mode lines, similarity, binary payload, and free text before the first header
  }
  if (inHunk && (oldLeft > 0 || newLeft > 0)) throw new DiffParseError('the last hunk is cut short');
  finish();
  if (changes.length === 0) throw new DiffParseError('no file header ("diff --git" or "---"/"+++") found');
  for (const change of changes) {
    if (change.oldPath === undefined && change.newPath === undefined) {
      throw new DiffParseError('a file section names no file');
    }
  }
  return changes;
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
