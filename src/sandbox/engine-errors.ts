/**
 * Telling the engine's failures from the request's and the work's: one rule
 * for "is this the engine's fault", whatever kind of engine answered. Work that
 * ends in an engine failure gets no verdict; it is tried again elsewhere.
 */
import { BugbenchError, EngineError, EngineUnreachableError, errorMessage, type EngineOperation } from '../errors.js';

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

/** The engine said there is no such thing (image, container, volume, file). */
export function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { statusCode?: number }).statusCode === 404;
}

/**
 * True for an error that says the engine itself failed (a server error, a
 * connection refused or cut), not the request and not the work.
 */
export function isEngineFailure(error: unknown): boolean {
  if (error instanceof EngineError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { statusCode, code, message } = error as { statusCode?: number; code?: string; message?: string };
  if (typeof statusCode === 'number') return statusCode >= 500;
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code)) return true;
  return typeof message === 'string' && /socket hang up|connect ECONNREFUSED|connect ENOENT/.test(message);
}

/** What a connection's failure leaves when nothing listens at the address (no socket, a refused or unreachable port). */
const NOBODY_THERE = ['ENOENT', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EACCES'];

/**
 * A request that never reached an engine, as the error that says so (exit 75,
 * and what to do), naming the engine as configured or else the address it
 * tried; undefined for any other error. A request refused at the door is no
 * verdict on the work: a script must not read "Docker is down" as "the bug is
 * invalid".
 */
export function unreachableEngine(error: unknown, configured?: string): EngineUnreachableError | undefined {
  if (typeof error !== 'object' || error === null || error instanceof BugbenchError) return undefined;
  const { code, syscall, address, port } = error as { code?: string; syscall?: string; address?: string; port?: number };
  if (syscall !== 'connect' || !code || !NOBODY_THERE.includes(code)) return undefined;
  const host = configured ?? (address === undefined ? 'the configured engine' : port === undefined ? `unix://${address}` : `tcp://${address}:${port}`);
  // A socket this user may not open: the engine may well run.
  if (code === 'EACCES') return new EngineUnreachableError(host, errorMessage(error), 'this user may not use its socket: add the user to the `docker` group (then log in again), or point DOCKER_HOST at an engine of your own (rootless Podman)');
  return new EngineUnreachableError(host, errorMessage(error));
}

/** The engine's own words from an error, without an HTTP client's "(HTTP code 500) server error - " prefix. */
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
