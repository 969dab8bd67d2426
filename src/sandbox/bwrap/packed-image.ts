/**
 * A packed image: one squashfs file holding an image's file system and, as
 * `/.bugbench-image.json`, what its configuration says (names, id, labels,
 * ENV, WorkingDir, User), so it needs no engine to be read or run. Written by
 * `bugbench images pack` (pack.ts), read by the bwrap engine kind.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SandboxError } from '../../errors.js';
import type { ImageInfo } from '../port.js';

const run = promisify(execFile);

/** Where a packed image keeps its configuration, at its root. */
export const IMAGE_CONFIG_PATH = '.bugbench-image.json';

/** The file name suffix the bwrap kind looks for in its folder. */
export const PACKED_SUFFIX = '.sqsh';

export interface PackedConfig {
  format: 1;
  /** The names the image had where it was packed (what sandboxes ask for). */
  names: string[];
  id: string;
  labels: Record<string, string>;
  workdir: string;
  user: string;
  env: string[];
  sizeBytes: number;
  packedAt: string;
}

/** What is wrong with a parsed configuration ('' when nothing is). */
function configProblem(value: unknown): string {
  const config = value as Partial<PackedConfig> | null;
  if (typeof config !== 'object' || config === null) return 'not an object';
  if (config.format !== 1) return `format ${String(config.format)}, not 1`;
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  if (!strings(config.names) || !strings(config.env)) return 'names and env must be lists of strings';
  if (typeof config.id !== 'string' || typeof config.workdir !== 'string' || typeof config.user !== 'string') return 'id, workdir and user must be strings';
  if (typeof config.labels !== 'object' || config.labels === null || !Object.values(config.labels).every((v) => typeof v === 'string')) return 'labels must map names to strings';
  return '';
}

/** The file name `images pack` suggests for an image: its name with / and : made safe, e.g. bugbench+repo-knotcfg@latest.sqsh. */
export function packedFileName(image: string): string {
  const named = /:[^/]+$/.test(image) ? image : `${image}:latest`;
  return `${named.replaceAll('/', '+').replace(/:([^:/]+)$/, '@$1')}${PACKED_SUFFIX}`;
}

/** The configuration inside a packed image file, read without unpacking it. */
export async function readPackedConfig(file: string): Promise<PackedConfig> {
  let text: string;
  try {
    text = (await run('unsquashfs', ['-cat', file, IMAGE_CONFIG_PATH], { maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    throw new SandboxError(`${file} is not a packed image bugbench can read (${(error as { stderr?: string }).stderr?.trim() || String(error)}); pack it again with \`bugbench images pack IMAGE --out ${file}\``);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    parsed = String(error);
  }
  const problem = configProblem(parsed);
  if (problem) throw new SandboxError(`${file}: ${IMAGE_CONFIG_PATH} is not one bugbench wrote (${problem}); pack it again`);
  return parsed as PackedConfig;
}

export function imageInfoOf(config: PackedConfig): ImageInfo {
  return { id: config.id, labels: config.labels, workdir: config.workdir, user: config.user, env: config.env, sizeBytes: config.sizeBytes };
}
