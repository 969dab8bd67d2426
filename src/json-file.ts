/** Reading a JSON file that may not be there (yet, or any more). */
import { readFileSync } from 'node:fs';

/** The parsed file, or undefined when it does not exist; anything else unreadable throws. */
export function readJsonFile<T>(path: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(text) as T;
}
