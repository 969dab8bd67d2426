/**
 * The agent loop's own cost, apart from the model and the tools:
 *   loopOverheadMsPerStep — wall time of runAgent minus the time spent inside the
 *     model and the tools, per step, with a trajectory recorder and a progress
 *     subscriber attached as `bugbench inject` has them;
 *   eventsPerSecond — events pushed through an EventStream to two subscribers.
 * The model and tools here answer at once and time themselves. The last line
 * printed is the JSON summary.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStream } from '../src/agent/events.js';
import { runAgent } from '../src/agent/loop.js';
import type { Model, ModelTurn } from '../src/agent/model.js';
import type { ToolResult, Tools } from '../src/agent/tools.js';
import { TrajectoryRecorder } from '../src/agent/trajectory.js';
import { rolloutLine } from '../src/commands/rollout-lines.js';

const STEPS = Number(process.env.BENCH_STEPS ?? 2000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);

let inside = 0;
const timed = async <T>(work: () => T): Promise<T> => {
  const started = performance.now();
  try {
    return work();
  } finally {
    inside += performance.now() - started;
  }
};

let call = 0;
/** Answers at once; only making the answer is timed, the streaming callbacks are the loop's own cost. */
const model: Model = {
  name: 'bench',
  costOf: () => 0.0001,
  async query(_request, callbacks) {
    const turn = await timed((): ModelTurn => {
      const id = `toolu_${++call}`;
      const input = { command: `echo step ${call} && python3 -m pytest -rA tests/test_something.py` };
      return {
        content: [
          { type: 'text', text: 'Running the next command to see what happens.' },
          { type: 'tool_use', id, name: 'bash', input },
        ],
        usage: { inputTokens: 2000, outputTokens: 60, cacheReadTokens: 1800, cacheWriteTokens: 100 },
        stopReason: 'tool_use',
      };
    });
    const [text, tool] = turn.content as unknown as [{ text: string }, { id: string; input: unknown }];
    callbacks.onText?.(text.text);
    callbacks.onToolStart?.(tool.id, 'bash');
    const json = JSON.stringify(tool.input);
    for (let i = 0; i < json.length; i += 16) callbacks.onToolInputDelta?.(tool.id, json.slice(i, i + 16));
    return turn;
  },
};

const output = 'x'.repeat(2000);
const tools: Tools = {
  definitions: [{ name: 'bash', description: 'run', input_schema: { type: 'object' } }],
  execute: () => timed((): ToolResult => ({ output, isError: false, exitCode: 0 })),
};

async function loopOverhead(): Promise<number> {
  const stream = new EventStream();
  const dir = mkdtempSync(join(tmpdir(), 'bugbench-bench-agent-'));
  new TrajectoryRecorder(join(dir, 'rollout.jsonl')).attach(stream);
  let lines = 0;
  stream.subscribe((event) => {
    if (rolloutLine('r1', event)) lines++;
  });
  inside = 0;
  const started = performance.now();
  const result = await runAgent({ model, tools, system: 'bench', task: 'bench', maxSteps: STEPS, stream });
  const total = performance.now() - started;
  if (result.steps !== STEPS || lines === 0) throw new Error('the bench loop did not run as planned');
  return (total - inside) / STEPS;
}

function eventsPerSecond(): number {
  const stream = new EventStream();
  let count = 0;
  let last = 0;
  stream.subscribe(() => count++);
  stream.subscribe((event) => {
    last = event.seq;
  });
  const started = performance.now();
  for (let i = 0; i < EVENTS; i++) stream.emit({ type: 'text-delta', step: 1, text: 'token ' });
  const seconds = (performance.now() - started) / 1000;
  if (count !== EVENTS || last !== EVENTS - 1) throw new Error('events went missing');
  return EVENTS / seconds;
}

await loopOverhead(); // warm up
const overhead = await loopOverhead();
eventsPerSecond();
const rate = eventsPerSecond();
console.log(`loop overhead: ${overhead.toFixed(3)} ms per step over ${STEPS} steps (recorder and progress attached)`);
console.log(`event stream: ${Math.round(rate).toLocaleString('en')} events per second to two subscribers`);
console.log(JSON.stringify({ loopOverheadMsPerStep: Number(overhead.toFixed(3)), eventsPerSecond: Math.round(rate), steps: STEPS, events: EVENTS }));
