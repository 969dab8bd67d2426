/**
 * How the offline agent reads a run's results where the image has no python3
 * (Go's official images, Multi-SWE-bench's): it shows the run's result lines
 * with grep (or the whole log, where its format needs every line) and reads
 * them itself, as a model reads a tool's output — with bugbench's own log
 * readers (src/bugs/log-readers), the ones that hold an artifact's parser to
 * account. It still writes the parser, for the artifact: the checks run it
 * where python3 is (bugs/parser-host.ts).
 */
import { readLog } from '../../bugs/log-readers/index.js';
import type { Compared } from './kit.js';
import { WORK } from './kit.js';

/** A run's results as the agent reads them: test id → passed or failed, and the other names of each id. */
export interface RunResults {
  results: Record<string, 'passed' | 'failed'>;
  aliases: Record<string, string[]>;
}

/** The line that tells where a run's results start in a tool's output (what comes before is other commands'). */
const heading = (name: string) => `== the results in ${name}.log ==`;

/**
 * A bash command that shows the run WORK/<name>'s results: the lines of the
 * log that match `frames` (an extended regular expression of the runner's own
 * result lines), or the whole log.
 */
export function showResults(name: string, frames?: string): string {
  const log = `${WORK}/${name}.log`;
  return `echo ${JSON.stringify(heading(name))}; ${frames ? `grep -aE '${frames}' ${log}` : `cat ${log}`}`;
}

/**
 * What a tool's output says of the run `name`'s results, read after the
 * heading showResults printed; undefined when the log cannot be read in full
 * (then nothing of it is trusted). Expected failures and groups (node's
 * describe blocks) are not results, as the bundled parsers leave them out.
 */
export function readResults(output: string, name: string): RunResults | undefined {
  const at = output.lastIndexOf(heading(name));
  if (at < 0) return undefined;
  const text = output
    .slice(at + heading(name).length)
    .split('\n')
    .filter((line) => !/^\[exit code \d+\]$/.test(line))
    .join('\n');
  const reading = readLog(text);
  if (!reading?.results) return undefined;
  const results: RunResults['results'] = {};
  for (const [id, outcome] of Object.entries(reading.results)) if (outcome !== 'xfailed') results[id] = outcome;
  // Another name of each test: its parts without the scope (node's titles without the file the log names).
  const aliases: RunResults['aliases'] = {};
  for (const [id, parts] of Object.entries(reading.parts ?? {})) {
    const inner = parts.filter((p) => p.drop !== 'scope').map((p) => p.forms[0] ?? '');
    if (inner.length > 0 && inner.length < parts.length) aliases[id] = [inner.join(' > ')];
  }
  return { results, aliases };
}

/** Which tests passed in `before` and do not in `after`, as the helper's compare says it. */
export function compareRuns(before: Record<string, string>, after: Record<string, string>): Compared {
  const broken = Object.keys(before)
    .filter((id) => before[id] === 'passed' && after[id] !== 'passed')
    .sort();
  return { broken_count: broken.length, broken, broken_files: {}, missing: broken.filter((id) => after[id] === undefined).length };
}
