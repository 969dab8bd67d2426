/**
 * Failures on bugbench's side of an engine's connection, which say nothing of
 * the engine. A write that finds the connection closed (EPIPE) is the usual
 * one: on bits-and-blooms/bitset bugbench's own event loop was blocked for
 * minutes, the engine closed the idle connection meanwhile, the next request
 * failed with "write EPIPE", and the pool called a healthy Docker "down". Such
 * an error is the engine's only if the engine then also fails to answer.
 */
import { EngineError } from '../errors.js';

const OWN_WRITE = /\bwrite EPIPE\b|\bEPIPE\b/;

/** Whether `error` is a write of ours that found the connection closed, rather than an answer (or silence) of the engine. */
export function isOwnWriteFailure(error: unknown): boolean {
  if (error instanceof EngineError) return OWN_WRITE.test(error.detail);
  if (typeof error !== 'object' || error === null) return false;
  const { code, syscall, message } = error as { code?: unknown; syscall?: unknown; message?: unknown };
  if (code === 'EPIPE' || (syscall === 'write' && typeof code === 'string')) return true;
  return typeof message === 'string' && OWN_WRITE.test(message);
}
