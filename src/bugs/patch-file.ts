/**
 * A candidate patch given as a file (`bugbench eval --patch FILE`): read and
 * parsed as a git diff before any container starts, so a file that is no
 * patch is refused at once with its name and what is wrong, rather than after
 * the original and buggy states have run.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { PatchFileError } from '../errors.js';
import { DiffParseError, parseDiff } from './diff.js';

/** The patch's text; PatchFileError naming the file when it is missing, not a file, or not a git diff. */
export function readPatchFile(path: string): string {
  if (!existsSync(path)) throw new PatchFileError(path, 'there is no such file');
  if (!statSync(path).isFile()) throw new PatchFileError(path, 'it is a folder, not a file');
  const text = readFileSync(path, 'utf8');
  try {
    parseDiff(text);
  } catch (error) {
    if (error instanceof DiffParseError) throw new PatchFileError(path, `it does not read as a git diff (${error.message})`);
    throw error;
  }
  return text;
}
