/**
 * The Docker engines a run may use, each with a number of slots (rollouts or
 * bug checks it takes at once). From, in order:
 *
 * - `DOCKER_HOST`, comma-separated, each address optionally followed by
 *   `?slots=N&name=NAME`, e.g.
 *   `unix:///var/run/docker.sock?slots=2,tcp://10.0.0.7:2375?slots=8&name=big`;
 * - the workspace's `bugbench.config.json`:
 *   `{"engines": [{"host": "tcp://10.0.0.7:2375", "slots": 8, "name": "big"}]}`;
 * - the local socket.
 *
 * An engine without a slot count gets as many as it has CPUs. Names default to
 * `e1`, `e2`, … in the order given; the first engine is the default one
 * (images are built there, single-engine commands use it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, UsageError } from '../errors.js';
import { workspaceDir } from '../paths.js';

export const DEFAULT_ENGINE_HOST = 'unix:///var/run/docker.sock';
export const ENGINES_CONFIG_FILE = 'bugbench.config.json';

export interface EngineSpec {
  name: string;
  /** The engine's address without bugbench's own parameters (unix:///…, tcp://…). */
  host: string;
  /** Undefined: as many as the engine has CPUs. */
  slots?: number;
}

function parseSlots(raw: string | null | undefined, where: string): number | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${where}: slots must be a positive integer, got "${raw}"`);
  return n;
}

/** One `DOCKER_HOST` entry: the address and bugbench's `?slots=N&name=X`. */
export function parseEngineEntry(entry: string, index: number): EngineSpec {
  const q = entry.indexOf('?');
  const host = q < 0 ? entry : entry.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : entry.slice(q + 1));
  for (const key of params.keys()) {
    if (key !== 'slots' && key !== 'name') throw new UsageError(`DOCKER_HOST entry "${entry}": unknown parameter "${key}" (use slots and name)`);
  }
  return { name: params.get('name') || `e${index + 1}`, host, slots: parseSlots(params.get('slots'), `DOCKER_HOST entry "${entry}"`) };
}

function fromConfigFile(file: string): EngineSpec[] | undefined {
  if (!existsSync(file)) return undefined;
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON (${errorMessage(error)}); fix or remove it`);
  }
  const engines = (config as { engines?: unknown } | null)?.engines;
  if (engines === undefined) return undefined;
  if (!Array.isArray(engines) || engines.length === 0) throw new UsageError(`${file}: "engines" must be a non-empty list of {"host", "slots", "name"}`);
  return engines.map((e: unknown, i) => {
    const entry = e as { host?: unknown; slots?: unknown; name?: unknown };
    if (typeof entry?.host !== 'string' || !entry.host) throw new UsageError(`${file}: engines[${i}].host must be an address such as unix:///var/run/docker.sock`);
    if (entry.name !== undefined && typeof entry.name !== 'string') throw new UsageError(`${file}: engines[${i}].name must be a string`);
    return { name: entry.name || `e${i + 1}`, host: entry.host, slots: parseSlots(entry.slots === undefined ? undefined : String(entry.slots), `${file}: engines[${i}]`) };
  });
}

/** The configured engines, first the default one. Names must differ. */
export function engineSpecs(env: NodeJS.ProcessEnv = process.env): EngineSpec[] {
  const raw = env.DOCKER_HOST?.trim();
  const specs = raw
    ? raw
        .split(',')
        .map((h) => h.trim())
        .filter((h) => h.length > 0)
        .map(parseEngineEntry)
    : (fromConfigFile(join(workspaceDir(env), ENGINES_CONFIG_FILE)) ?? [{ name: 'e1', host: DEFAULT_ENGINE_HOST }]);
  const names = new Set<string>();
  for (const spec of specs) {
    if (names.has(spec.name)) throw new UsageError(`two Docker engines are named "${spec.name}"; give each its own name (?name=… in DOCKER_HOST)`);
    names.add(spec.name);
  }
  return specs;
}

/** The addresses of the configured engines, the default one first. */
export function engineHosts(env: NodeJS.ProcessEnv = process.env): string[] {
  return engineSpecs(env).map((spec) => spec.host);
}
