/**
 * Where the training engines are and how to talk to them. Each setting comes
 * from, in order: an environment variable, the workspace's
 * `bugbench.config.json` ("training" section), and — for Slurm only, when
 * neither names a slurmrestd — the file `scripts/slurm-up` writes for the local
 * cluster (`$BUGBENCH_SLURM_DIR/bugbench.config.json`, default
 * /tmp/bugbench-slurm). See docs/guide/training.md.
 *
 *   {
 *     "training": {
 *       "engine": "slurm",
 *       "slurm": { "url": "https://head:6820", "socket": "/run/slurmrestd.sock", "user": "alice",
 *                  "token": "…", "jwtKeyFile": "/etc/slurm/jwt_hs256.key", "partition": "gpu",
 *                  "apiVersion": "v0.0.38" },
 *       "ray": { "address": "http://head:8265" },
 *       "local": { "dir": "/path/for/local/job/records" }
 *     }
 *   }
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TrainingNotConfiguredError } from '../errors.js';
import { workspaceDir } from '../paths.js';
import { ENGINE_NAMES, type EngineName } from './types.js';
import type { SlurmSettings } from '../cluster/slurm/settings.js';

export type { SlurmSettings } from '../cluster/slurm/settings.js';

export interface RaySettings {
  /** The Ray dashboard's HTTP address, e.g. http://head:8265. */
  address?: string;
  source: string;
}

export interface TrainingSettings {
  /** The engine to use when none is named (explicit setting, else the first one configured). */
  engine?: EngineName;
  slurm: SlurmSettings;
  ray: RaySettings;
  local: { dir: string };
}

export const CONFIG_FILE = 'bugbench.config.json';
export const DEFAULT_SLURM_API_VERSION = 'v0.0.38';

type Section = Record<string, unknown>;

export function localClusterDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.BUGBENCH_SLURM_DIR || '/tmp/bugbench-slurm';
}

function section(config: unknown, file: string, ...path: string[]): Section {
  let node: unknown = config;
  for (const key of path) {
    if (node === undefined || node === null) return {};
    if (typeof node !== 'object' || Array.isArray(node)) {
      throw new TrainingNotConfiguredError(`${file}: "${path.join('.')}" must be an object`);
    }
    node = (node as Section)[key];
  }
  if (node === undefined || node === null) return {};
  if (typeof node !== 'object' || Array.isArray(node)) throw new TrainingNotConfiguredError(`${file}: "${path.join('.')}" must be an object`);
  return node as Section;
}

function text(s: Section, key: string, file: string, where: string): string | undefined {
  const value = s[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new TrainingNotConfiguredError(`${file}: "${where}.${key}" must be a string`);
  return value;
}

export interface SettingsSources {
  env: NodeJS.ProcessEnv;
  /** Parsed workspace config, when there is one. */
  workspace?: { file: string; config: unknown };
  /** Parsed config of the local cluster scripts/slurm-up started, when there is one. */
  localCluster?: { file: string; config: unknown };
  /** Default folder for local job records. */
  localDir: string;
}

/** Pure: merges the sources (environment first) into settings. */
export function resolveTrainingSettings(sources: SettingsSources): TrainingSettings {
  const { env } = sources;
  const wsFile = sources.workspace?.file ?? CONFIG_FILE;
  const ws = section(sources.workspace?.config, wsFile, 'training');
  const wsSlurm = section(sources.workspace?.config, wsFile, 'training', 'slurm');
  const wsRay = section(sources.workspace?.config, wsFile, 'training', 'ray');
  const wsLocal = section(sources.workspace?.config, wsFile, 'training', 'local');

  const fromEnvOrWorkspace = (envName: string, key: string): string | undefined =>
    env[envName] || text(wsSlurm, key, wsFile, 'training.slurm');
  let slurm: SlurmSettings = {
    url: fromEnvOrWorkspace('SLURMRESTD_URL', 'url'),
    socket: fromEnvOrWorkspace('SLURMRESTD_SOCKET', 'socket'),
    user: fromEnvOrWorkspace('SLURM_USER', 'user'),
    token: fromEnvOrWorkspace('SLURM_JWT', 'token'),
    jwtKeyFile: fromEnvOrWorkspace('SLURM_JWT_KEY', 'jwtKeyFile'),
    partition: fromEnvOrWorkspace('SLURM_PARTITION', 'partition'),
    apiVersion: fromEnvOrWorkspace('SLURMRESTD_API_VERSION', 'apiVersion') ?? DEFAULT_SLURM_API_VERSION,
    source: env.SLURMRESTD_URL || env.SLURMRESTD_SOCKET ? 'environment' : wsFile,
  };
  if (!slurm.url && !slurm.socket && sources.localCluster) {
    // Nothing names a slurmrestd: use the local cluster, keeping any setting given explicitly.
    const lc = section(sources.localCluster.config, sources.localCluster.file, 'training', 'slurm');
    const pick = (key: keyof SlurmSettings) =>
      (slurm[key] as string | undefined) ?? text(lc, key, sources.localCluster!.file, 'training.slurm');
    slurm = {
      url: pick('url'),
      socket: pick('socket'),
      user: pick('user'),
      token: slurm.token,
      jwtKeyFile: pick('jwtKeyFile'),
      partition: pick('partition'),
      apiVersion: env.SLURMRESTD_API_VERSION || text(wsSlurm, 'apiVersion', wsFile, 'training.slurm') || text(lc, 'apiVersion', sources.localCluster.file, 'training.slurm') || DEFAULT_SLURM_API_VERSION,
      source: `${sources.localCluster.file} (the local cluster of scripts/slurm-up)`,
    };
  }

  const rayAddress = env.RAY_API_SERVER_ADDRESS || env.RAY_ADDRESS || text(wsRay, 'address', wsFile, 'training.ray');
  const ray: RaySettings = {
    address: rayAddress,
    source: env.RAY_API_SERVER_ADDRESS ? 'RAY_API_SERVER_ADDRESS' : env.RAY_ADDRESS ? 'RAY_ADDRESS' : wsFile,
  };

  const engineName = env.BUGBENCH_TRAINING_ENGINE || text(ws, 'engine', wsFile, 'training');
  if (engineName !== undefined && !ENGINE_NAMES.includes(engineName as EngineName)) {
    throw new TrainingNotConfiguredError(`training engine must be one of ${ENGINE_NAMES.join(', ')}, got "${engineName}"`);
  }
  const engine = (engineName as EngineName | undefined) ?? (slurm.url || slurm.socket ? 'slurm' : ray.address ? 'ray' : undefined);
  return {
    engine,
    slurm,
    ray,
    local: { dir: text(wsLocal, 'dir', wsFile, 'training.local') ?? sources.localDir },
  };
}

/** A JSON config file, or undefined when there is none. */
export function readConfigFile(file: string): { file: string; config: unknown } | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return { file, config: JSON.parse(readFileSync(file, 'utf8')) };
  } catch (error) {
    throw new TrainingNotConfiguredError(`${file} is not valid JSON (${(error as Error).message}); fix or remove it`);
  }
}

/** Reads the settings from the environment, the workspace config and the local cluster's file. */
export function loadTrainingSettings(env: NodeJS.ProcessEnv = process.env): TrainingSettings {
  const ws = workspaceDir(env);
  return resolveTrainingSettings({
    env,
    workspace: readConfigFile(join(ws, CONFIG_FILE)),
    localCluster: readConfigFile(join(localClusterDir(env), CONFIG_FILE)),
    localDir: join(ws, 'local-jobs'),
  });
}
