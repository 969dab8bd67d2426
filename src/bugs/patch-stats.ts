/**
 * Patch statistics as BugPilot's Table 7 counts them: lines of code and lines
 * of documentation changed (comments, docstrings and documentation files are
 * documentation), files edited, files created — and the diff's size in tokens.
 * A line counts once whether added or removed; blank lines count as neither.
 */
import { parseDiffFiles, type DiffFile } from './diff.js';

export interface PatchStats {
  linesOfCode: number;
  linesOfDocumentation: number;
  filesEdited: number;
  filesCreated: number;
  filesDeleted: number;
  diffTokens: number;
  /** The tokenizer `diffTokens` was counted with. */
  tokenizer: string;
}

const DOC_FILE = /(^|\/)(docs?|documentation)\/|\.(md|rst|txt|adoc)$|(^|\/)(README|CHANGELOG|CHANGES|HISTORY|AUTHORS|LICENSE|NEWS)([.-][^/]*)?$/i;

/** Line comments by file extension; files not listed have none we know. */
const LINE_COMMENT: [RegExp, RegExp][] = [
  [/\.(py|sh|bash|rb|pl|toml|ya?ml|cfg|ini|r)$/i, /^\s*#/],
  [/\.(js|jsx|ts|tsx|mjs|cjs|java|c|cc|cpp|h|hpp|go|rs|swift|kt|scala|cs|php)$/i, /^\s*(\/\/|\/\*|\*\/?(\s|$))/],
  [/\.(sql|lua|hs)$/i, /^\s*--/],
];

export function isDocumentationFile(path: string): boolean {
  return DOC_FILE.test(path);
}

/**
 * Counts a file's changed lines as code or documentation. In Python,
 * triple-quoted strings that start a statement (docstrings) are followed
 * through the hunk's lines; other languages count their comments.
 */
function countFile(file: DiffFile): { code: number; docs: number } {
  const path = file.newPath ?? file.oldPath ?? '';
  let code = 0;
  let docs = 0;
  if (isDocumentationFile(path)) {
    for (const hunk of file.hunks) for (const line of hunk.lines) if ((line[0] === '+' || line[0] === '-') && line.slice(1).trim() !== '') docs++;
    return { code, docs };
  }
  const comment = LINE_COMMENT.find(([ext]) => ext.test(path))?.[1];
  const python = /\.py$/i.test(path);
  for (const hunk of file.hunks) {
    // Docstring state is followed separately on the old and the new side.
    const inDoc = { old: false, new: false };
    for (const line of hunk.lines) {
      const sign = line[0];
      if (sign === '\\') continue;
      const text = line.slice(1);
      const sides: ('old' | 'new')[] = sign === '+' ? ['new'] : sign === '-' ? ['old'] : ['old', 'new'];
      const side = sides[0]!;
      let doc = inDoc[side] || (comment?.test(text) ?? false);
      if (python) {
        const quotes = (text.match(/"""|'''/g) ?? []).length;
        const opens = !inDoc[side] && /^\s*[rRbBuUfF]?("""|''')/.test(text);
        if (opens) doc = true;
        if (quotes % 2 === 1) for (const s of sides) inDoc[s] = !inDoc[s];
      }
      if (sign !== '+' && sign !== '-') continue;
      if (text.trim() === '') continue;
      if (doc) docs++;
      else code++;
    }
  }
  return { code, docs };
}

/** Counts everything but tokens, which `countTokens` (a tokenizer) adds. */
export function patchStats(diff: string, countTokens: (text: string) => number, tokenizer: string): PatchStats {
  const stats: PatchStats = { linesOfCode: 0, linesOfDocumentation: 0, filesEdited: 0, filesCreated: 0, filesDeleted: 0, diffTokens: 0, tokenizer };
  for (const file of parseDiffFiles(diff)) {
    if (file.oldPath === undefined) stats.filesCreated++;
    else if (file.newPath === undefined) stats.filesDeleted++;
    else stats.filesEdited++;
    const { code, docs } = countFile(file);
    stats.linesOfCode += code;
    stats.linesOfDocumentation += docs;
  }
  stats.diffTokens = diff.trim() === '' ? 0 : countTokens(diff);
  return stats;
}
