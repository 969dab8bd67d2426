/**
 * A workspace with bugs that can be exported without an engine: the
 * valid-two-files artifact copied into each bug's folder, with the
 * FAIL_TO_PASS / PASS_TO_PASS of a check report beside it.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BugRecord } from '../../src/store/records.js';
import { bugFolder } from '../../src/store/records.js';
import { Store } from '../../src/store/store.js';
import { artifactPath, VALID_FAIL_TO_PASS } from './artifacts.js';
import { bugRecord, VALID_CHECK } from './records.js';

/** Puts the bugs in the store at `root`, each with the files an export reads; returns the store. */
export function seedExportableBugs(root: string, bugs: { id: string; fields?: Partial<BugRecord> }[]): Store {
  const store = Store.open({ root });
  for (const { id } of bugs) {
    const dir = store.abs(bugFolder(id));
    cpSync(artifactPath('valid-two-files'), dir, { recursive: true });
    mkdirSync(join(dir, 'checks', 'c1'), { recursive: true });
    writeFileSync(join(dir, 'checks', 'c1', 'tests.json'), JSON.stringify({ FAIL_TO_PASS: VALID_FAIL_TO_PASS, PASS_TO_PASS: ['tests/test_lexer.py::test_words'] }));
  }
  store.transact((tx) => {
    for (const { id, fields } of bugs) tx.put('bugs', bugRecord(id, { check: { ...VALID_CHECK, dir: 'checks/c1' }, ...fields }));
  });
  return store;
}
