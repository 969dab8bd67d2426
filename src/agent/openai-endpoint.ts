/**
 * Where the `openai` policy's server is, which model it plays and what it
 * costs. Each setting comes from, in order: the flag (`--base-url`, `--model`,
 * `--price-in`, `--price-out`), the environment (`OPENAI_BASE_URL`,
 * `OPENAI_API_KEY`, `OPENAI_MODEL`), and the workspace's `bugbench.config.json`:
 *
 *   { "openai": { "baseUrl": "http://gpu-box:8000/v1", "model": "my-checkpoint",
 *                 "apiKey": "…", "priceIn": 0, "priceOut": 0 } }
 *
 * A local server needs no key: a placeholder is sent. The key is read here
 * when a model is made and never kept in a setting, a record or a log.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, UsageError } from '../errors.js';
import { workspaceDir } from '../paths.js';
import type { Price } from './pricing.js';

export const CONFIG_FILE = 'bugbench.config.json';
/** What a server that checks no key is sent (the library wants one). */
export const NO_KEY = 'EMPTY';

export interface OpenAIEndpoint {
  baseUrl: string;
  apiKey: string;
  /** Undefined when nothing names one: verify() then says what the server has. */
  model: string | undefined;
  price: Price;
}

/** What a run was given (flags); the rest comes from the environment and the config file. */
export interface OpenAIGiven {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  priceIn?: number;
  priceOut?: number;
}

interface ConfigSection {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  priceIn?: number;
  priceOut?: number;
}

function configSection(env: NodeJS.ProcessEnv): ConfigSection {
  const file = join(workspaceDir(env), CONFIG_FILE);
  if (!existsSync(file)) return {};
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON (${errorMessage(error)}); fix or remove it`);
  }
  const section = (config as { openai?: unknown } | null)?.openai;
  if (section === undefined || section === null) return {};
  if (typeof section !== 'object' || Array.isArray(section)) throw new UsageError(`${file}: "openai" must be an object such as {"baseUrl": "http://host:8000/v1", "model": "name"}`);
  const s = section as Record<string, unknown>;
  for (const key of ['baseUrl', 'apiKey', 'model'] as const) {
    if (s[key] !== undefined && typeof s[key] !== 'string') throw new UsageError(`${file}: "openai.${key}" must be a string`);
  }
  for (const key of ['priceIn', 'priceOut'] as const) {
    if (s[key] !== undefined && !(typeof s[key] === 'number' && s[key] >= 0)) throw new UsageError(`${file}: "openai.${key}" must be a number of dollars per million tokens, 0 or more`);
  }
  return s as ConfigSection;
}

/** A server's address as the library wants it: with its API path (`/v1` when only a host is given), without a trailing slash. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`"${raw}" is not a server address; give one such as http://localhost:8000/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`"${raw}" is not an http(s) address; give one such as http://localhost:8000/v1`);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? '/v1' : path}`;
}

export function resolveEndpoint(given: OpenAIGiven, env: NodeJS.ProcessEnv = process.env): OpenAIEndpoint {
  const config = configSection(env);
  const raw = given.baseUrl ?? (env.OPENAI_BASE_URL || undefined) ?? config.baseUrl;
  if (!raw) {
    throw new UsageError('the openai policy needs its server: pass --base-url URL (e.g. http://localhost:8000/v1), set OPENAI_BASE_URL, or put "openai": {"baseUrl": …} in bugbench.config.json');
  }
  return {
    baseUrl: normalizeBaseUrl(raw),
    apiKey: given.apiKey ?? (env.OPENAI_API_KEY || undefined) ?? config.apiKey ?? NO_KEY,
    model: given.model ?? (env.OPENAI_MODEL || undefined) ?? config.model,
    price: { inputPerMTok: given.priceIn ?? config.priceIn ?? 0, outputPerMTok: given.priceOut ?? config.priceOut ?? 0 },
  };
}

/** Whether a server is configured at all (the workbench offers the policy then). */
export function endpointConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    return Boolean(env.OPENAI_BASE_URL || configSection(env).baseUrl);
  } catch {
    return false;
  }
}
