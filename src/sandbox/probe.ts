/**
 * doctor's proof that an engine can run bugbench's work: one sandbox of
 * `image` made, `true` run in it and the sandbox removed, timed. Each engine
 * kind reads a refusal its own way, so the error is handed back as thrown.
 */
import type { ContainerEngine } from './port.js';

export type SandboxProbe = { ok: true; ms: number } | { ok: false; ms: number; error: unknown };

export async function probeSandbox(port: ContainerEngine, image: string): Promise<SandboxProbe> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const sandbox = await port.createSandbox({ image, runId: 'doctor-probe' });
    try {
      await sandbox.run('true', { timeoutMs: 30_000 });
    } finally {
      await sandbox.remove().catch(() => undefined);
    }
    return { ok: true, ms: ms() };
  } catch (error) {
    return { ok: false, ms: ms(), error };
  }
}
