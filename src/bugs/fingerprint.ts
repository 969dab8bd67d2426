/**
 * A bug's fingerprint: a hash of its bug_inject.diff with everything that does
 * not change the bug taken out — hunk offsets, context lines, whitespace, the
 * order of files. Two bugs on one image and commit with the same fingerprint
 * are the same bug.
 */
import { createHash } from 'node:crypto';
import { parseDiffFiles } from './diff.js';

/** The diff reduced to what it changes: per file (sorted), its removed and added lines without whitespace. */
export function normaliseDiff(diff: string): string {
  return parseDiffFiles(diff)
    .map((file) => {
      const changed = file.hunks
        .flatMap((hunk) => hunk.lines)
        .filter((line) => line[0] === '+' || line[0] === '-')
        .map((line) => `${line[0]}${line.slice(1).replace(/\s+/g, '')}`)
        .filter((line) => line.length > 1);
      return `${file.oldPath ?? ''} ${file.newPath ?? ''}\n${changed.join('\n')}`;
    })
    .sort()
    .join('\n\n');
}

export function bugFingerprint(diff: string): string {
  return createHash('sha256').update(normaliseDiff(diff)).digest('hex').slice(0, 16);
}
