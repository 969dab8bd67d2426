/**
 * The workbench under a flood: 100,000 rollout events from 8 concurrent
 * rollouts go through the real App — the same batcher, reducer and Rollouts
 * screen as a live run — drawn by Ink to an 80×24 terminal as a real one
 * would get it (no debug mode). Prints as its last line:
 *   frameMsP95  — 95th percentile of the work behind one update of the screen:
 *                 a delivery of a batch of events (reducer, React's render and
 *                 commit, and Ink's frame when it draws at once), or a frame Ink
 *                 draws on its own later (its throttle's trailing edge);
 *   heapGrowthMB — heap after the flood minus heap before it (both after a GC);
 *   fullClears   — how many times Ink cleared the whole terminal.
 * BENCH_EVENTS, BENCH_ROLLOUTS, BENCH_COLUMNS, BENCH_ROWS change the load.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RolloutEvent, RolloutEventBody } from '../src/agent/events.js';
import type { DoctorReport } from '../src/pipeline/doctor.js';
import type { InjectResult } from '../src/pipeline/inject.js';
import { Store } from '../src/store/store.js';
import { App } from '../src/ui/app.js';
import { workbenchCore, type WorkbenchCore } from '../src/pipeline/workbench-core.js';
import { deliveryProbe } from '../src/ui/batcher.js';
import { renderIn } from '../test/helpers/terminal.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const ROLLOUTS = Number(process.env.BENCH_ROLLOUTS ?? 8);
const SIZE = { columns: Number(process.env.BENCH_COLUMNS ?? 80), rows: Number(process.env.BENCH_ROWS ?? 24) };
const RUN_ID = 'run-bench-tui';

const gc = (globalThis as { gc?: () => void }).gc;
const heapMB = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 1024 ** 2;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One step of an agent, as the loop emits it: streamed text, a streamed tool call, its output, the usage. */
function* stepEvents(step: number): Generator<RolloutEventBody> {
  yield { type: 'step-started', step };
  const text = `Step ${step}: reading the module and running the tests around the function I changed, to see which ones break. `;
  for (let i = 0; i < text.length; i += 6) yield { type: 'text-delta', step, text: text.slice(i, i + 6) };
  const callId = `toolu_${step}`;
  yield { type: 'tool-call-started', step, callId, name: 'bash' };
  const input = { command: `cd /repo && python3 -m pytest -rA tests/test_module_${step % 7}.py -k "not slow" | tail -n 40` };
  const json = JSON.stringify(input);
  for (let i = 0; i < json.length; i += 12) yield { type: 'tool-input-delta', step, callId, partialJson: json.slice(i, i + 12) };
  const output = Array.from({ length: 40 }, (_, i) => `PASSED tests/test_module_${step % 7}.py::test_case_${i} some longer text to wrap`).join('\n');
  yield { type: 'tool-call-finished', step, callId, name: 'bash', input, output, isError: false, exitCode: 0, durationMs: 850 };
  const usage = { inputTokens: 2000 + step, outputTokens: 80, cacheReadTokens: 1800, cacheWriteTokens: 100 };
  yield { type: 'step-usage', step, usage, costUsd: 0.002, totalCostUsd: 0.002 * step };
}

async function main(): Promise<void> {
  const store = Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-bench-tui-')) });
  let flood: Promise<void> = Promise.resolve();
  let floodMs = 0;
  const core: WorkbenchCore = {
    ...workbenchCore(store),
    diagnose: async (): Promise<DoctorReport> => ({
      engine: { ok: true, version: 'bench', host: 'bench' },
      engines: [],
      baseImage: { ok: true, tag: 'bench' },
      sampleImages: [],
      anthropicKey: true,
      cluster: { ok: false, detail: 'not asked' },
    }),
    engines: async () => [],
    listImages: async () => [{ id: 'sha256:bench', tag: 'bench/repo:latest', repo: 'bench', commit: 'c0ffee', created: new Date().toISOString(), sizeBytes: 0, bugs: 0, bugCounts: {}, testCommand: 'pytest' }],
    startInjection: async (_start, _deps, report): Promise<InjectResult> => {
      report({ type: 'run-started', runId: RUN_ID, kind: 'inject' });
      const ids = Array.from({ length: ROLLOUTS }, (_, i) => `${RUN_ID}-r${i + 1}`);
      const seq = new Map(ids.map((id) => [id, 0]));
      const started = performance.now();
      const send = (id: string, body: RolloutEventBody) => {
        const n = seq.get(id)! + 1;
        seq.set(id, n);
        report({ type: 'rollout', rolloutId: id, event: { ...body, seq: n, t: performance.now() - started } as RolloutEvent });
      };
      for (const id of ids) send(id, { type: 'rollout-started', rolloutId: id, runId: RUN_ID, role: 'injector', strategy: 'removal', policy: 'anthropic', model: 'bench', image: 'bench/repo:latest' });
      flood = (async () => {
        const steps = ids.map(() => stepEvents(1));
        const stepNo = ids.map(() => 1);
        let sent = ROLLOUTS;
        // Round robin: every rollout gets a few events in turn, as concurrent rollouts interleave.
        while (sent < EVENTS) {
          for (let r = 0; r < ROLLOUTS && sent < EVENTS; r++) {
            for (let k = 0; k < 4 && sent < EVENTS; k++) {
              let next = steps[r]!.next();
              if (next.done) {
                steps[r] = stepEvents(++stepNo[r]!);
                next = steps[r]!.next();
              }
              send(ids[r]!, next.value as RolloutEventBody);
              sent++;
            }
          }
          // A few hundred events per turn of the event loop: faster than any model streams.
          if (sent % 400 < 4 * ROLLOUTS) await new Promise((resolve) => setImmediate(resolve));
        }
        floodMs = performance.now() - started;
      })();
      await flood;
      return { runId: RUN_ID, status: 'finished', bugs: [], rollouts: [], yield: { rollouts: ROLLOUTS, submitted: 0, featuresThatBroke: null, valid: 0 } } as unknown as InjectResult;
    },
  };

  const frames: number[] = [];
  let inkFrames = 0;
  const term = renderIn(<App core={core} />, SIZE, 'tty', {
    // A frame drawn inside a delivery is part of its time; one drawn on its own counts by itself.
    onRender: ({ renderTime }) => {
      inkFrames++;
      if (!deliveryProbe.busy) frames.push(renderTime);
    },
  });
  const waitFor = async (text: string) => {
    for (let i = 0; i < 200 && !term.writes.join('').includes(text); i++) await sleep(25);
  };
  await waitFor('Repo images');
  await sleep(100);
  const heapBefore = heapMB();
  const clearsBefore = term.clears();
  frames.length = 0;
  inkFrames = 0;
  deliveryProbe.record = (ms) => frames.push(ms);
  term.stdin.write('\r'); // Images → Run
  await waitFor('enter starts the run');
  term.stdin.write('\r'); // start: the flood begins
  await sleep(50);
  await flood;
  await sleep(500); // the last batch drawn
  const heapAfter = heapMB();
  const fullClears = term.clears() - clearsBefore;
  term.unmount();

  const sorted = [...frames].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
  console.log(`events ${EVENTS} from ${ROLLOUTS} rollouts in ${Math.round(floodMs)} ms; ${frames.length} updates, ${inkFrames} frames drawn at ${SIZE.columns}×${SIZE.rows}; update max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`);
  if (process.env.BENCH_VERBOSE) console.log(frames.map((ms) => ms.toFixed(1)).join(' '));
  if (!gc) console.log('(run with node --expose-gc for a heap figure after collection)');
  console.log(JSON.stringify({ frameMsP95: Number(p95.toFixed(2)), heapGrowthMB: Number((heapAfter - heapBefore).toFixed(1)), fullClears }));
  process.exit(0);
}

await main();
