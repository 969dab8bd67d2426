#!/usr/bin/env node
// Builds the TypeScript only when something it compiles changed since the last build, so
// `npm start` opens the workbench at once instead of compiling for several seconds every time.
// The stamp is written by build.mjs, which every build goes through.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, ROOT, STAMP } from './build.mjs';

function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), info.mtimeMs);
}

const inputs = ['src', 'bench', 'test/helpers', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => join(ROOT, p)).filter(existsSync);
const changed = Math.max(...inputs.map(newest));
if (!existsSync(STAMP) || statSync(STAMP).mtimeMs < changed) {
  process.stderr.write('bugbench: compiling the TypeScript (only after a change)…\n');
  try {
    build();
  } catch {
    process.exit(1);
  }
}
