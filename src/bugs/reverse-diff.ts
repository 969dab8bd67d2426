/**
 * The reverse of a git diff, made from the text alone: what takes the changed
 * state back to the original. The fix of a bug is the reverse of
 * bug_inject.diff; the oracle test patch is the reverse of test_weaken.diff.
 * Created files become deleted ones and back, renames run the other way, and
 * in each run of changed lines the removals come first, as git writes them.
 */
import { DiffParseError, hunkHeader, parseDiffFiles, type DiffFile, type Hunk } from './diff.js';

const SWAPPED_HEADERS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^new file mode (\d+)$/, (m) => `deleted file mode ${m[1]}`],
  [/^deleted file mode (\d+)$/, (m) => `new file mode ${m[1]}`],
  [/^old mode (\d+)$/, (m) => `new mode ${m[1]}`],
  [/^new mode (\d+)$/, (m) => `old mode ${m[1]}`],
  [/^rename from (.*)$/, (m) => `rename to ${m[1]}`],
  [/^rename to (.*)$/, (m) => `rename from ${m[1]}`],
  [/^copy from (.*)$/, (m) => `copy to ${m[1]}`],
  [/^copy to (.*)$/, (m) => `copy from ${m[1]}`],
  [/^index ([0-9a-f]+)\.\.([0-9a-f]+)(.*)$/, (m) => `index ${m[2]}..${m[1]}${m[3]}`],
];

function reverseHeaderLine(line: string): string {
  // Most header lines are none of these; the first letters say which could be.
  if (!/^(new|del|old|ren|cop|ind)/.test(line)) return line;
  for (const [pattern, swap] of SWAPPED_HEADERS) {
    const m = pattern.exec(line);
    if (m) return swap(m);
  }
  return line;
}

function reverseHeader(file: DiffFile): string[] {
  const out: string[] = [];
  const minus = file.header.find((l) => l.startsWith('--- '));
  const plus = file.header.find((l) => l.startsWith('+++ '));
  for (const line of file.header) {
    if (line.startsWith('diff --git ')) {
      const rest = line.slice('diff --git '.length);
      // `diff --git a/X b/Y` becomes `diff --git a/Y b/X`.
      const m = /^("?)a\/(.*?)\1 ("?)b\/(.*)\3$/.exec(rest);
      out.push(m ? `diff --git ${m[3]}a/${m[4]}${m[3]} ${m[1]}b/${m[2]}${m[1]}` : line);
    } else if (line.startsWith('--- ')) {
      out.push(`--- ${swapSide(plus!.slice(4), 'a')}`);
    } else if (line.startsWith('+++ ')) {
      out.push(`+++ ${swapSide(minus!.slice(4), 'b')}`);
    } else out.push(reverseHeaderLine(line));
  }
  return out;
}

/** `b/x.py` as the other side's `a/x.py`; /dev/null stays. */
function swapSide(path: string, side: 'a' | 'b'): string {
  if (path.trim() === '/dev/null') return path;
  return path.replace(/^("?)[ab]\//, `$1${side}/`);
}

function reverseHunk(hunk: Hunk): string[] {
  const out = [hunkHeader(hunk.newStart, hunk.newCount, hunk.oldStart, hunk.oldCount, hunk.section)];
  // Each line with the "No newline" marker that follows it.
  const units: string[][] = [];
  for (const line of hunk.lines) {
    if (line.startsWith('\\')) units.at(-1)?.push(line);
    else units.push([line]);
  }
  let removed: string[][] = [];
  let added: string[][] = [];
  const flush = () => {
    for (const unit of [...removed, ...added]) out.push(...unit);
    removed = [];
    added = [];
  };
  for (const unit of units) {
    const [line, ...marker] = unit as [string, ...string[]];
    if (line[0] === '+') removed.push([`-${line.slice(1)}`, ...marker]);
    else if (line[0] === '-') added.push([`+${line.slice(1)}`, ...marker]);
    else {
      flush();
      out.push(...unit);
    }
  }
  flush();
  return out;
}

/** The diff that undoes `diff`. An empty diff reverses to an empty one. */
export function reverseDiff(diff: string): string {
  const files = parseDiffFiles(diff);
  if (files.length === 0) return '';
  const binary = files.find((f) => f.binary);
  if (binary) throw new DiffParseError(`cannot reverse the binary change of ${binary.newPath ?? binary.oldPath}`);
  const lines = files.flatMap((file) => [...reverseHeader(file), ...file.hunks.flatMap(reverseHunk)]);
  return `${lines.join('\n')}\n`;
}
