/**
 * The connection to a Docker engine. `DOCKER_HOST` (unix://, tcp://) is honoured,
 * else the local socket; a comma-separated `DOCKER_HOST` (or the workspace's
 * config) lists several engines to spread rollouts over (engine-config.ts), and
 * the first one is the default.
 */
import Docker from 'dockerode';
import { EngineError, EngineUnreachableError, errorMessage, type EngineOperation } from '../errors.js';
import { engineSpecs } from './engine-config.js';

export interface EngineInfo {
  host: string;
  version: string;
  apiVersion: string;
}

/** The addresses of the configured engines, the default one first. */
export function engineHosts(env: NodeJS.ProcessEnv = process.env): string[] {
  return engineSpecs(env).map((spec) => spec.host);
}

/** Options for dockerode from a host string such as `unix:///run/docker.sock` or `tcp://127.0.0.1:2375`. */
export function dockerOptions(host: string): Docker.DockerOptions {
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) };
  if (host.startsWith('/')) return { socketPath: host };
  const url = new URL(host.replace(/^tcp:/, 'http:'));
  return { host: url.hostname, port: Number(url.port || 2375), protocol: 'http' };
}

const clients = new Map<string, Docker>();

export function dockerClient(host: string = engineHosts()[0]!): Docker {
  let client = clients.get(host);
  if (!client) {
    client = new Docker(dockerOptions(host));
    clients.set(host, client);
  }
  return client;
}

/** How long an engine that answered its ping may take over a question about itself (a loaded Podman is slow, not dead). */
export const DESCRIBE_TIMEOUT_MS = 30_000;

/** Asks the engine for its version; throws EngineUnreachableError if it does not answer a ping within `timeoutMs`. */
export async function engineInfo(host: string = engineHosts()[0]!, timeoutMs = 3000): Promise<EngineInfo> {
  const docker = dockerClient(host);
  try {
    await withTimeout(docker.ping(), timeoutMs, 'timed out');
    const version = await withTimeout(docker.version(), DESCRIBE_TIMEOUT_MS, `answers a ping but not /version within ${DESCRIBE_TIMEOUT_MS / 1000} s`);
    return { host, version: version.Version, apiVersion: version.ApiVersion };
  } catch (error) {
    throw new EngineUnreachableError(host, errorMessage(error));
  }
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** True when the engine has an image with this tag or id. */
export async function imageExists(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

export function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { statusCode?: number }).statusCode === 404;
}

/**
 * True for an error that says the engine itself failed (a server error, a
 * connection refused or cut), not the request and not the work: the one rule
 * for "is this the engine's fault". Work that ends this way gets no verdict.
 */
export function isEngineFailure(error: unknown): boolean {
  if (error instanceof EngineError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { statusCode, code, message } = error as { statusCode?: number; code?: string; message?: string };
  if (typeof statusCode === 'number') return statusCode >= 500;
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code)) return true;
  return typeof message === 'string' && /socket hang up|connect ECONNREFUSED|connect ENOENT/.test(message);
}

/** The engine's own words from a dockerode error, without dockerode's "(HTTP code 500) server error - " prefix. */
export function engineText(error: unknown): string {
  const json = (error as { json?: { message?: unknown } } | null)?.json;
  if (json && typeof json.message === 'string' && json.message.trim()) return json.message.trim();
  return errorMessage(error).replace(/^\(HTTP code \d+\) [a-z ]+- /, '').trim();
}

/** The error as an EngineError when the engine is to blame for it (see isEngineFailure), else unchanged. */
export function asEngineError(error: unknown, operation: EngineOperation): unknown {
  if (error instanceof EngineError || !isEngineFailure(error)) return error;
  return new EngineError(operation, engineText(error));
}

/** Runs one request to the engine; a failure of the engine's own becomes an EngineError naming `operation`. */
export async function engineCall<T>(operation: EngineOperation, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw asEngineError(error, operation);
  }
}
