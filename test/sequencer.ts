/**
 * The order test files start in: longest first. Two workers share the
 * files, so the run ends when the later one does; a long file that starts
 * late (vitest's own order on a fresh clone is by file size, and the longest
 * file here is one of the smallest) leaves one worker alone at the end. How
 * long a file takes is vitest's own record from an earlier run of this
 * checkout where there is one, else test/durations.json (written by
 * scripts/test-durations.mjs from a full run's report); a file neither knows
 * is new and starts first, as vitest does.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const recorded = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (file: TestSpecification): number => {
      const path = relative(root, file.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`);
      return cached ? cached.duration / 1000 : (recorded[path] ?? Infinity);
    };
    const base = await super.sort(files);
    return base
      .map((file, at) => ({ file, at, seconds: seconds(file) }))
      .sort((a, b) => b.seconds - a.seconds || a.at - b.at)
      .map(({ file }) => file);
  }
}
