#!/usr/bin/env node
// Writes the parts of the docs made from the code (src/commands/docs-reference.ts): the CLI reference
// in docs/reference/commands.md and the workbench keys in docs/reference/keys.md. Run after a change to
// a command or a screen's keys (`npm run docs:reference`); a unit test fails while they are stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, ROOT } from './build.mjs';

build();
const { referenceDocs } = await import(join(ROOT, 'dist', 'src', 'commands', 'docs-reference.js'));
for (const doc of await referenceDocs(ROOT)) {
  writeFileSync(join(ROOT, doc.path), doc.text);
  process.stdout.write(`wrote ${doc.path}\n`);
}
