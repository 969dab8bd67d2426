/**
 * `bugbench check <bug-id | artifact-dir> [--image TAG] [--json] [--all] [--min-passing N]
 *   [--min-changed-files N] [--min-failing N] [--timeout S] [--buggy-runs N]
 *   [--max-weakened-tests N] [--parallel N] [--fresh-containers]`
 * (--fresh-containers makes a new container per run, as SWE-bench's harness does; for comparison.)
 */
import type { CheckEvent, CheckReport, CheckResult } from '../bugs/check-types.js';
import { reportJson } from '../bugs/check-report.js';
import { checkArtifact } from '../bugs/consistency.js';
import { ORIGINAL_CACHE_DIR } from '../bugs/original-cache.js';
import type { CheckParams } from '../bugs/meta.js';
import { resolveBug } from '../bugs/resolve.js';
import { describeWeakening } from '../bugs/weakening.js';
import { UsageError } from '../errors.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { checkStoredBug } from '../pipeline/bug-checks.js';
import { openWorkspace } from '../pipeline/startup.js';
import { parseFlags, positiveInt, printJson } from './args.js';
import { cancelOnInterrupt } from './interrupt.js';
import { LiveLine } from './live-line.js';
import type { CommandModule } from './command.js';

const FLAGS = {
  image: { type: 'string' },
  json: { type: 'boolean', default: false },
  all: { type: 'boolean', default: false },
  'min-passing': { type: 'string' },
  'min-changed-files': { type: 'string' },
  'min-failing': { type: 'string' },
  timeout: { type: 'string' },
  'buggy-runs': { type: 'string' },
  'max-weakened-tests': { type: 'string' },
  parallel: { type: 'string' },
  'fresh-containers': { type: 'boolean', default: false },
} as const;

export async function checkCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'check',
    args,
    FLAGS,
    1,
  );
  const ref = positionals[0];
  if (!ref) throw new UsageError('check: give a bug id or an artifact folder');
  const params: Partial<CheckParams> = {};
  const set = <K extends keyof CheckParams>(key: K, value: number | undefined) => {
    if (value !== undefined) params[key] = value;
  };
  set('minPassingTests', positiveInt('min-passing', values['min-passing']));
  set('minChangedFiles', positiveInt('min-changed-files', values['min-changed-files']));
  set('minFailingTests', positiveInt('min-failing', values['min-failing']));
  set('testTimeoutSec', positiveInt('timeout', values.timeout, 1));
  set('buggyRuns', positiveInt('buggy-runs', values['buggy-runs'], 1));
  set('maxWeakenedTests', positiveInt('max-weakened-tests', values['max-weakened-tests']));
  // By default two containers take turns on the test script, one preparing while the other runs, unless the
  // script leaves a core free (check-lanes.ts); --parallel N gives N containers whose test runs always overlap.
  const parallel = positiveInt('parallel', values.parallel, 1);
  const parallelism = parallel ?? 2;

  const engine = defaultContainerEngine();
  const store = await openWorkspace({ engine });
  const live = values.json ? undefined : new LiveLine(process.stderr);
  const onEvent = live ? (event: CheckEvent) => showProgress(live, event) : undefined;
  const interrupt = cancelOnInterrupt('the checks');
  let report: CheckReport;
  let logDir: string;
  try {
    if (store.get('bugs', ref)) {
      // A bug of the workspace: its verdict is recorded (a cancelled run records `cancelled`).
      if (values.image) throw new UsageError(`check: ${ref} is checked on its own image; --image is for artifact folders`);
      ({ report, logDir } = await checkStoredBug(
        { bugId: ref, params, parallelism, parallelTests: parallel !== undefined, freshContainerPerRun: values['fresh-containers'], all: values.all },
        { store, engine, signal: interrupt.signal },
        (event) => event.type === 'check' && onEvent?.(event.event),
      ));
    } else {
      const bug = await resolveBug(engine, ref, { image: values.image, params, purpose: 'checks' });
      logDir = bug.logDir;
      report = await checkArtifact({
        artifact: bug.artifact,
        image: bug.image,
        baseCommit: bug.baseCommit,
        params: bug.params,
        logDir,
        parallelism,
        parallelTests: parallel !== undefined,
        freshContainerPerRun: values['fresh-containers'],
        all: values.all,
        originalCache: store.abs(ORIGINAL_CACHE_DIR),
        signal: interrupt.signal,
        onEvent,
      });
    }
  } finally {
    interrupt.dispose();
    live?.clear();
  }
  if (values.json) printJson(reportJson(report));
  else process.stdout.write(formatReport(report, logDir));
  return report.valid ? 0 : report.cancelled ? 130 : 1;
}

function showProgress(live: LiveLine, event: CheckEvent): void {
  if (event.type === 'check-started') live.set(`… ${event.check}`);
  else if (event.type === 'run-started') live.set(`… ${event.check}: running tests (${event.label})`);
  else if (event.type === 'check-finished') {
    live.clear();
    process.stdout.write(formatCheck(event.result));
  }
}

const MARKS = { pass: '✓', fail: '✗', skipped: '-', cancelled: '○' } as const;

export function formatCheck(result: CheckResult): string {
  const time = result.durationMs >= 100 ? ` (${(result.durationMs / 1000).toFixed(1)} s)` : '';
  return `${MARKS[result.verdict]} ${result.name.padEnd(17)} ${result.reason}${time}\n`;
}

export function formatReport(report: CheckReport, logDir: string): string {
  const failed = report.checks.find((c) => c.verdict === 'fail')?.name;
  const lines = ['', report.valid ? 'VALID bug' : report.cancelled ? 'CANCELLED: the checks were interrupted; no verdict' : `INVALID bug: ${failed ?? 'not all checks ran'} failed`];
  if (report.valid) lines.push(`FAIL_TO_PASS: ${report.FAIL_TO_PASS.length} test(s), PASS_TO_PASS: ${report.PASS_TO_PASS.length} test(s)`);
  if (report.weakening) lines.push(describeWeakening(report.weakening));
  if (report.parser?.status === 'unverified' && report.parser.unverified.length > 0) {
    lines.push(`parser unverified (${report.parser.unverified.map((u) => `${u.run}: ${u.why}`).join('; ')})`);
  }
  lines.push(`logs: ${logDir}`);
  return `${lines.join('\n')}\n`;
}

export const command: CommandModule = {
  name: 'check',
  summary: 'run the nine consistency checks on a bug or artifact folder',
  usage: [
    'bugbench check <bug-id | artifact-dir> [--image T] [--all] [--min-passing N] [--min-changed-files N]',
    '  [--min-failing N] [--timeout S] [--buggy-runs N] [--max-weakened-tests N] [--parallel N] [--fresh-containers] [--json]',
  ],
  flags: FLAGS,
  run: checkCommand,
};
