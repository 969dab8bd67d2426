#!/usr/bin/env node
// Writes test/durations.json, the seconds each test file took, from the JSON
// report of a full run (.ci/run keeps one: /tmp/bugbench-ci-results.*.json).
// The test sequencer (test/sequencer.ts) starts the longest files first.
//   node scripts/test-durations.mjs REPORT.json
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const report = process.argv[2];
if (!report) {
  console.error('usage: node scripts/test-durations.mjs REPORT.json (a vitest --reporter=json output)');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const seconds = {};
for (const file of testResults) {
  // The report's paths are absolute in the checkout that ran; keep them relative to its test folder.
  const path = file.name.slice(file.name.lastIndexOf('/test/') + 1);
  const took = Math.round((file.endTime - file.startTime) / 100) / 10;
  seconds[path] = Math.max(seconds[path] ?? 0, took);
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
const out = join(root, 'test', 'durations.json');
writeFileSync(out, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`wrote ${relative(process.cwd(), out)}: ${Object.keys(sorted).length} files, ${Object.values(sorted).reduce((a, b) => a + b, 0).toFixed(0)} s in all`);
