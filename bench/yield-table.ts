/** The yield table's rows and its Markdown, in SWE-smith's column order (bench/yield.ts measures the rows). */

export interface YieldRow {
  sample: string;
  language: string;
  policy: string;
  strategy: string;
  /** Rollouts started (SWE-smith's candidates). */
  candidates: number;
  submitted: number;
  valid: number;
  /** Mean test-script runs of a submitted bug's checks; null when none was submitted. */
  testRunsPerBug: number | null;
  cpuSecondsPerValid: number | null;
  /** The same CPU seconds per valid bug by where they went: the rollouts' containers, the checks' lanes, the checks' parser container. */
  cpuSecondsPerValidBy: { rollouts: number; checks: number; parser: number } | null;
  /** Containers whose CPU time was read, and those whose engine did not tell it. */
  containers: number;
  unreadContainers: number;
  wallSecondsPerValid: number | null;
  medianLines: number | null;
  medianFiles: number | null;
  /** Solved attempts over attempts of the offline solver mix; null when nothing was solved. */
  solveRate: number | null;
}

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fixed = (value: number | null, digits: number) => (value === null ? '–' : value.toFixed(digits));
const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(0)}%`);

const HEADER = ['sample', 'language', 'strategy', 'candidates', 'submitted', 'valid', 'yield', 'runs/bug', 'CPU s/valid', 'wall s/valid', 'lines', 'files', 'solve (mix)'];

/** The rows as a Markdown table; a row of a model's policy names it beside the strategy. */
export function yieldTable(rows: YieldRow[]): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map((_, i) => (i < 3 ? '---' : '---:')).join('|')}|`];
  for (const r of rows) {
    const strategy = r.policy === 'offline' ? r.strategy : `${r.strategy} (${r.policy})`;
    const cells = [
      `\`${r.sample}\``,
      r.language,
      strategy,
      String(r.candidates),
      String(r.submitted),
      String(r.valid),
      percent(r.valid, r.candidates),
      fixed(r.testRunsPerBug, 1),
      fixed(r.cpuSecondsPerValid, 1),
      fixed(r.wallSecondsPerValid, 1),
      fixed(r.medianLines, 0),
      fixed(r.medianFiles, 0),
      r.solveRate === null ? '–' : `${(100 * r.solveRate).toFixed(0)}%`,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
