/**
 * What verify-export reads: one JSONL file. A folder (a Harbor export, or any
 * other) is refused with a typed error that says what to give instead, not
 * with the file system's EISDIR.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExportFileError } from '../../../src/datasets/export-error.js';
import { EXPORT_MANIFEST } from '../../../src/datasets/out-target.js';
import { readExport, verifyExport } from '../../../src/datasets/verify-export.js';

const folder = () => mkdtempSync(join(tmpdir(), 'bugbench-verify-file-'));

describe('verify-export on a folder', () => {
  it('refuses a Harbor export folder, naming it and the file to give instead', async () => {
    const harbor = folder();
    writeFileSync(join(harbor, EXPORT_MANIFEST), JSON.stringify({ format: 'harbor', harbor_schema_version: '1.1', tasks: [], skipped: [] }));
    mkdirSync(join(harbor, 'knotcfg-removal-1'));
    const refused = verifyExport({ path: harbor, runs: 1 });
    await expect(refused).rejects.toThrow(ExportFileError);
    await expect(refused).rejects.toThrow(`${harbor} is a folder (a \`harbor\` export): verify-export reads one JSONL file of \`swebench\` or \`rl\` instances`);
    await expect(refused).rejects.toThrow(/bugbench export --format swebench --out FILE/);
    await expect(refused).rejects.toThrow(/harbor run -p/);
  });

  it('refuses any other folder the same way, with the exit code of a file that is no export', () => {
    const other = folder();
    let error: unknown;
    try {
      readExport(other);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ExportFileError);
    expect((error as ExportFileError).message).toMatch(new RegExp(`^${other} is a folder: verify-export reads one JSONL file`));
    expect((error as ExportFileError).exitCode).toBe(2);
  });
});
