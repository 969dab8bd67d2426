/**
 * How much the sandbox costs over the plain docker CLI, measured in one run:
 *   createToReadyRatio = (Sandbox.create + first exec) / `docker run --rm IMAGE true`
 *   execRatio          = Sandbox.exec('true') / `docker exec CID true`
 * Medians of several rounds; the last line printed is the JSON summary.
 */
import { execa } from 'execa';
import { BASE_IMAGE } from '../src/sandbox/docker-api/base-image.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { openSandbox } from '../src/sandbox/engine-table.js';

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
  console.log(`create+start+first exec: ${summary.createToReadyMs} ms vs docker run --rm: ${summary.dockerRunMs} ms`);
  console.log(`exec round trip: ${summary.execMs} ms vs docker exec: ${summary.dockerExecMs} ms`);
  console.log(JSON.stringify(summary));
}

await main();
