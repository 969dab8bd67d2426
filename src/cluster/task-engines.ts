/**
 * The engines a cluster run's tasks are told to use. Of the engines named on
 * the submitting side (DOCKER_HOST's list, or bugbench.config.json), those
 * that name no machine — `bwrap:///DIR`, a folder of packed images every node
 * sees at the same path — travel to the tasks as their DOCKER_HOST, with
 * their slots and names. A Docker or Podman address names an engine of this
 * machine (or one the nodes may not reach), so it stays here; with no
 * engine of the first kind, each task picks its node's own engine
 * (sandbox/node-engine.ts).
 */
import { imagesFolder } from '../sandbox/bwrap/engine.js';
import { engineSpecs, parseEngineEntry, type EngineSpec } from '../sandbox/engine-config.js';
import { engineTypeOf } from '../sandbox/engine-table.js';

/** An engine as one DOCKER_HOST entry: `host?slots=N&name=X`. */
export function engineEntry(spec: EngineSpec): string {
  const params = new URLSearchParams();
  if (spec.slots !== undefined) params.set('slots', String(spec.slots));
  params.set('name', spec.name);
  return `${spec.host}?${params.toString()}`;
}

/** The DOCKER_HOST of a cluster run's tasks, or undefined when each task picks its node's engine. */
export function taskEngines(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const travelling = engineSpecs(env).filter((spec) => engineTypeOf(spec.host) === 'bwrap');
  return travelling.length > 0 ? travelling.map(engineEntry).join(',') : undefined;
}

/** The `bwrap:///DIR` folders a task engines list names. */
export function packedImageFolders(engines: string): string[] {
  return engines
    .split(',')
    .map((entry, i) => parseEngineEntry(entry.trim(), i).host)
    .filter((host) => engineTypeOf(host) === 'bwrap')
    .map(imagesFolder);
}
