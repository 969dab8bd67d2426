/**
 * A package loaded the first time it is needed, synchronously, from its
 * CommonJS build: for parsers most runs never use (a TAP stream, a JUnit
 * report), so that every command does not pay for loading them at start-up.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
