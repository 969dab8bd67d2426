/**
 * Runs data/checks/weakening.py in a bug's container: which test functions
 * test_weaken.diff deletes, changes and adds. The script works on a scratch
 * git index, so the runs under way in the same container are not disturbed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import { shellQuote, type Sandbox } from '../sandbox/sandbox.js';
import { DIFFS_IN_CONTAINER, WEAKENING_SCRIPT } from './container-paths.js';
import type { WeakeningAnalysis, WeakenedFile } from './weakening.js';

let script: string | undefined;

export function weakeningScript(): string {
  script ??= readFileSync(join(PACKAGE_ROOT, 'data', 'checks', 'weakening.py'), 'utf8');
  return script;
}

function isFile(value: unknown): value is WeakenedFile {
  const f = value as WeakenedFile;
  const names = (list: unknown) => Array.isArray(list) && list.every((n) => typeof n === 'string');
  return typeof f?.path === 'string' && typeof f.parsed === 'boolean' && typeof f.other === 'boolean' && names(f.deleted) && names(f.changed) && names(f.added);
}

/** The analysis, or undefined when the container cannot make it (no python3, a diff that does not apply). */
export async function analyzeWeakening(sandbox: Sandbox, base: string, paths: string[]): Promise<WeakeningAnalysis | undefined> {
  if (paths.length === 0) return { files: [] };
  const command = `python3 ${WEAKENING_SCRIPT} ${shellQuote(base)} ${DIFFS_IN_CONTAINER.weaken} ${paths.map(shellQuote).join(' ')}`;
  const result = await sandbox.exec(command, { timeoutMs: 60_000, maxOutputBytes: 4 * 1024 * 1024 });
  if (result.exitCode !== 0 || result.timedOut || result.truncated) return undefined;
  try {
    const value = JSON.parse(result.stdout) as { files?: unknown[] };
    if (!Array.isArray(value.files) || !value.files.every(isFile)) return undefined;
    return { files: value.files };
  } catch {
    return undefined;
  }
}
