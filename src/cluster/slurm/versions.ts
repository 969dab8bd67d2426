/** The slurmrestd OpenAPI versions bugbench speaks, by version string (see api.ts for what each provides). */
import type { SlurmApi } from './api.js';
import { v0038 } from './v0038.js';

const VERSIONS: Record<string, SlurmApi> = { [v0038.version]: v0038 };

export const SLURM_API_VERSIONS = Object.keys(VERSIONS);

export function slurmApi(version: string): SlurmApi | undefined {
  return VERSIONS[version];
}
