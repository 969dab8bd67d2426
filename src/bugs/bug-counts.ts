/** How many stored bugs each image has, read from the artifact folders in the workspace. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspacePath } from '../paths.js';

export function countBugsByImage(bugsDir: string = workspacePath('bugs')): Map<string, number> {
  const counts = new Map<string, number>();
  if (!existsSync(bugsDir)) return counts;
  for (const entry of readdirSync(bugsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    try {
      const meta = JSON.parse(readFileSync(join(bugsDir, entry.name, 'meta.json'), 'utf8')) as { image?: { tag?: string } };
      const tag = meta.image?.tag;
      if (tag) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    } catch {
      // a folder without a readable meta.json is not a bug
    }
  }
  return counts;
}
