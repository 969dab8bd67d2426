#!/usr/bin/env node
// Compiles the TypeScript to dist/ and then writes the stamp that build-if-stale.mjs compares with the
// sources: every build goes through here (`npm run build`, `prepare` after `npm ci`, `npm start` after a
// change), so the first `npm start` after an install opens the workbench without compiling again.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const STAMP = join(ROOT, 'dist', '.built');

export function build() {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    build();
  } catch {
    // tsc has printed its errors; no stamp is written, so the next start compiles again.
    process.exit(1);
  }
}
