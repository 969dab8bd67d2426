/**
 * The workspace store at scale: a workspace filled with BENCH_BUGS (default
 * 50,000) synthetic bugs — each a real artifact folder with its diffs, test
 * files, script, parser and check report, and a record — then:
 *   openMs         opening the store in a fresh process (median of 3);
 *   acceptMsP50    accepting one bug (lock, catch up, validate, journal line, fsync), median of 200;
 *   listFilteredMs listing bugs by status, image and strategy (median of 5);
 *   exportAllMs    a SWE-bench export of every valid bug.
 * Targets: ≤ 1000, ≤ 20, ≤ 100, ≤ 30,000. The last line printed is the JSON summary.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { bugFingerprint } from '../src/bugs/fingerprint.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { acceptBug } from '../src/pipeline/review.js';
import { filterBugs } from '../src/store/queries.js';
import type { BugRecord } from '../src/store/records.js';
import { Store } from '../src/store/store.js';
import { exportDataset } from '../src/datasets/export.js';

const BUGS = Number(process.env.BENCH_BUGS ?? 50_000);
const FIXTURE = join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts', 'valid-two-files');
const IMAGES = ['bugbench/repo-knotcfg:latest', 'bugbench/repo-slotsmith:latest', 'bugbench/repo-tomli:latest', 'bugbench/repo-attrs:latest'];
const STRATEGIES = ['removal', 'history', 'direct', 'featadd', 'buginstruct'];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function fill(root: string): void {
  const files = Object.fromEntries(
    ['test_files.txt', 'test_script.sh', 'test_parser.py', 'bug_inject.diff', 'test_weaken.diff'].map((name) => [name, readFileSync(join(FIXTURE, name), 'utf8')]),
  );
  const passToPass = Array.from({ length: 80 }, (_, i) => `tests/test_module_${i % 7}.py::test_case_number_${i}`);
  const store = Store.open({ root, durable: false });
  const batch = 1000;
  for (let start = 0; start < BUGS; start += batch) {
    const records: BugRecord[] = [];
    for (let i = start; i < Math.min(BUGS, start + batch); i++) {
      const id = `synthetic-${STRATEGIES[i % STRATEGIES.length]}-${i.toString(16).padStart(8, '0')}`;
      const dir = join(root, 'bugs', id);
      const checks = join(dir, 'checks', '2026-11-22T00-00-00-000Z');
      mkdirSync(checks, { recursive: true });
      // Each bug's diff differs a little, as real bugs do.
      const bugDiff = files['bug_inject.diff']!.replace('Kind.FLOAT', `Kind.FLOAT  # ${i}`);
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), name === 'bug_inject.diff' ? bugDiff : text);
      const createdAt = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
      writeFileSync(join(dir, 'meta.json'), JSON.stringify({ image: { tag: IMAGES[i % IMAGES.length] }, baseCommit: 'c'.repeat(40), strategy: STRATEGIES[i % STRATEGIES.length], order: 1, createdAt }));
      writeFileSync(join(checks, 'tests.json'), JSON.stringify({ FAIL_TO_PASS: passToPass.slice(0, 6), PASS_TO_PASS: passToPass.slice(6) }));
      writeFileSync(join(checks, 'report.json'), '{}');
      records.push({
        id,
        status: i % 10 === 9 ? 'invalid' : 'valid',
        image: IMAGES[i % IMAGES.length]!,
        repo: 'synthetic',
        baseCommit: 'c'.repeat(40),
        strategy: STRATEGIES[i % STRATEGIES.length]!,
        policy: 'offline',
        model: `offline/${STRATEGIES[i % STRATEGIES.length]}`,
        order: 1,
        parentId: null,
        attemptId: null,
        runId: `run-20261122-000000-${(i % 500).toString(16).padStart(4, '0')}`,
        rollout: `run-20261122-000000-${(i % 500).toString(16).padStart(4, '0')}-r${i}`,
        createdAt,
        updatedAt: createdAt,
        fingerprint: bugFingerprint(bugDiff),
        duplicateOf: null,
        checkingBy: null,
        check: {
          valid: i % 10 !== 9,
          cancelled: false,
          failedCheck: i % 10 === 9 ? 'bug-validity' : null,
          reason: i % 10 === 9 ? '0 passing test(s) fail with the bug; at least 1 required' : 'all 9 checks pass',
          verdicts: i % 10 === 9 ? 'pppppfsss' : 'ppppppppp',
          at: createdAt,
          dir: 'checks/2026-11-22T00-00-00-000Z',
          failToPass: 6,
          passToPass: 74,
        },
        review: null,
      });
    }
    store.transact((tx) => {
      for (const record of records) tx.put('bugs', record);
    });
    if ((start / batch) % 10 === 9) process.stderr.write(`  ${start + batch} bugs written\n`);
  }
}

async function openInFreshProcess(root: string): Promise<number> {
  const script = `
    const { Store } = await import(${JSON.stringify(join(PACKAGE_ROOT, 'dist', 'src', 'store', 'store.js'))});
    const started = performance.now();
    const store = Store.open({ root: ${JSON.stringify(root)} });
    const ms = performance.now() - started;
    process.stdout.write(JSON.stringify({ ms, bugs: store.count('bugs') }));
  `;
  const { stdout } = await execa('node', ['--input-type=module', '-e', script]);
  const { ms, bugs } = JSON.parse(stdout) as { ms: number; bugs: number };
  if (bugs !== BUGS) throw new Error(`the store opened with ${bugs} bugs, not ${BUGS}`);
  return ms;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bugbench-bench-store-'));
  try {
    process.stderr.write(`filling ${root} with ${BUGS} bugs…\n`);
    const filled = performance.now();
    fill(root);
    process.stderr.write(`filled in ${((performance.now() - filled) / 1000).toFixed(1)} s\n`);

    const opens: number[] = [];
    for (let i = 0; i < 3; i++) opens.push(await openInFreshProcess(root));

    const store = Store.open({ root });
    const valid = store.all('bugs').filter((b) => b.status === 'valid');
    const accepts: number[] = [];
    for (let i = 0; i < 200; i++) {
      const bug = valid[(i * 7919) % valid.length]!;
      const started = performance.now();
      acceptBug(store, bug.id, 'bench', 'bench@bench');
      accepts.push(performance.now() - started);
    }

    const lists: number[] = [];
    let listed = 0;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      listed = filterBugs(store.all('bugs'), { status: 'valid', image: IMAGES[i % IMAGES.length], strategy: 'removal' }).length;
      lists.push(performance.now() - started);
    }

    const out = join(root, 'export.jsonl');
    const exportStarted = performance.now();
    const exported = await exportDataset(store, { format: 'swebench', out, status: 'valid' });
    const exportAllMs = performance.now() - exportStarted;

    const summary = {
      openMs: Math.round(median(opens)),
      acceptMsP50: Number(median(accepts).toFixed(2)),
      listFilteredMs: Number(median(lists).toFixed(1)),
      exportAllMs: Math.round(exportAllMs),
      bugs: BUGS,
      acceptMsMax: Number(Math.max(...accepts).toFixed(1)),
      listed,
      exported: exported.count,
    };
    process.stderr.write(`targets: openMs ≤ 1000, acceptMsP50 ≤ 20, listFilteredMs ≤ 100, exportAllMs ≤ 30000\n`);
    console.log(JSON.stringify(summary));
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(root, { recursive: true, force: true });
  }
}

await main();
