#!/usr/bin/env node
// Builds the TypeScript only when something it compiles changed since the last build, so
// `npm start` opens the workbench at once instead of compiling for several seconds every time.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.built');

function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), info.mtimeMs);
}

const inputs = ['src', 'bench', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => join(root, p)).filter(existsSync);
const changed = Math.max(...inputs.map(newest));
if (!existsSync(stamp) || statSync(stamp).mtimeMs < changed) {
  process.stderr.write('bugbench: compiling the TypeScript (only after a change)…\n');
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
