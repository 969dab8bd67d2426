#!/usr/bin/env node
// The installed entry point: the compiled CLI lives in dist/ (built by `npm run build`, run on install).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/src/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('bugbench: not built yet; run `npm run build` in the bugbench folder first\n');
  process.exit(2);
}
// React and Ink run their production builds unless asked otherwise: the development
// builds check every render and make the workbench several times slower.
process.env.NODE_ENV ??= 'production';
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
