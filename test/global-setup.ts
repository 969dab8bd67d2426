/**
 * Before any test: a Docker engine that answers, the base image and the sample
 * images — made by the same code as `bugbench doctor --fix`, so a fresh machine
 * sets itself up (a minute or two the first time, under a second after).
 */
import { fix, reportHealthy } from '../src/pipeline/doctor.js';

export default async function setup(): Promise<void> {
  const started = Date.now();
  const report = await fix((message) => process.stderr.write(`[setup] ${message}\n`));
  if (!reportHealthy(report)) {
    throw new Error(`test environment is not ready: ${JSON.stringify(report)}`);
  }
  process.stderr.write(`[setup] engine and images ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
