/**
 * How much the sandbox costs over the plain docker CLI, measured in one run:
 *   createToReadyRatio = (Sandbox.create + first exec) / `docker run --rm IMAGE true`
 *   execRatio          = Sandbox.exec('true') / `docker exec CID true`
 * With BENCH_BWRAP=bwrap:///DIR (a folder where `bugbench images pack` put
 * the base image) the bwrap kind is measured the same way beside them:
 *   bwrapCreateRatio = (create + first exec on bwrap) / `docker run --rm IMAGE true`
 *   bwrapExecRatio   = exec('true') on bwrap / `docker exec CID true`
 * (its first sandbox, which unpacks the image, is left out).
 * Medians of several rounds; the last line printed is the JSON summary.
 */
import { execa } from 'execa';
import { BASE_IMAGE } from '../src/sandbox/docker-api/base-image.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { engineAt, openSandbox } from '../src/sandbox/engine-table.js';
import type { ContainerEngine } from '../src/sandbox/port.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const EXECS = Number(process.env.BENCH_EXECS ?? 30);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Medians of create-to-ready and of exec('true') on `engine`, after one sandbox that warms it up. */
async function measure(engine: ContainerEngine): Promise<{ createMs: number; execMs: number }> {
  await (await openSandbox({ engine, image: BASE_IMAGE, runId: 'bench-sandbox' })).remove();
  const creates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let sandbox: Sandbox | undefined;
    creates.push(
      await time(async () => {
        sandbox = await openSandbox({ engine, image: BASE_IMAGE, runId: 'bench-sandbox' });
        await sandbox.exec('true');
      }),
    );
    await sandbox?.remove();
  }
  const sandbox = await openSandbox({ engine, image: BASE_IMAGE, runId: 'bench-sandbox' });
  const execs: number[] = [];
  try {
    for (let i = 0; i < EXECS; i++) execs.push(await time(() => sandbox.exec('true')));
  } finally {
    await sandbox.remove();
  }
  return { createMs: median(creates), execMs: median(execs) };
}

async function main(): Promise<void> {
  const ours: number[] = [];
  const cli: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    cli.push(await time(() => execa('docker', ['run', '--rm', '--network', 'none', BASE_IMAGE, 'true'])));
    let sandbox: Sandbox | undefined;
    ours.push(
      await time(async () => {
        sandbox = await openSandbox({ image: BASE_IMAGE, runId: 'bench-sandbox' });
        await sandbox.exec('true');
      }),
    );
    await sandbox?.remove();
  }

  const sandbox = await openSandbox({ image: BASE_IMAGE, runId: 'bench-sandbox' });
  const ourExec: number[] = [];
  const cliExec: number[] = [];
  try {
    for (let i = 0; i < EXECS; i++) {
      cliExec.push(await time(() => execa('docker', ['exec', sandbox.id, 'true'])));
      ourExec.push(await time(() => sandbox.exec('true')));
    }
  } finally {
    await sandbox.remove();
  }

  const summary = {
    createToReadyMs: Math.round(median(ours)),
    dockerRunMs: Math.round(median(cli)),
    createToReadyRatio: Number((median(ours) / median(cli)).toFixed(3)),
    execMs: Number(median(ourExec).toFixed(1)),
    dockerExecMs: Number(median(cliExec).toFixed(1)),
    execRatio: Number((median(ourExec) / median(cliExec)).toFixed(3)),
    rounds: ROUNDS,
    execs: EXECS,
  };
  const bwrapHost = process.env.BENCH_BWRAP;
  const bwrap = bwrapHost ? await measure(engineAt(bwrapHost)) : undefined;
  const bwrapSummary = bwrap
    ? {
        bwrapCreateToReadyMs: Math.round(bwrap.createMs),
        bwrapCreateRatio: Number((bwrap.createMs / median(cli)).toFixed(3)),
        bwrapExecMs: Number(bwrap.execMs.toFixed(1)),
        bwrapExecRatio: Number((bwrap.execMs / median(cliExec)).toFixed(3)),
      }
    : {};
  console.log(`create+start+first exec: ${summary.createToReadyMs} ms vs docker run --rm: ${summary.dockerRunMs} ms`);
  console.log(`exec round trip: ${summary.execMs} ms vs docker exec: ${summary.dockerExecMs} ms`);
  if (bwrap) console.log(`bwrap: create+first exec ${Math.round(bwrap.createMs)} ms, exec ${bwrap.execMs.toFixed(1)} ms`);
  console.log(JSON.stringify({ ...summary, ...bwrapSummary }));
}

await main();
