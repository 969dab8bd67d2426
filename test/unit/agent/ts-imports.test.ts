import { beforeAll, describe, expect, it } from 'vitest';
import { applySplices, loadGrammars, mergeDeletions } from '../../../src/agent/offline/syntax.js';
import { tsUnusedImports } from '../../../src/agent/offline/ts-imports.js';

beforeAll(async () => {
  await loadGrammars();
});

/** The file once its unused imports are gone. */
const tidied = (source: string, file = 'test/a.test.ts') => applySplices(source, mergeDeletions(tsUnusedImports(file, source)));

const BODY = "\ndescribe('max', () => {\n  it('takes the larger', () => assert.equal(max([1, 2]), 2));\n});\n";

describe('tsUnusedImports', () => {
  it('deletes the named imports nothing uses, with their commas, wherever they stand', () => {
    const head = "import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\n";
    expect(tidied(`${head}import { compare, max, rsort } from '../src';\n${BODY}`)).toBe(`${head}import { max } from '../src';\n${BODY}`);
    expect(tidied(`${head}import { max, rsort, sort } from '../src';\n${BODY}`)).toBe(`${head}import { max } from '../src';\n${BODY}`);
    expect(tidied(`${head}import {\n  compare,\n  max,\n  sort,\n} from '../src';\n${BODY}`)).toBe(`${head}import {\n  max,\n} from '../src';\n${BODY}`);
  });

  it('deletes a whole import when nothing it binds is used, default, namespace and type imports alike', () => {
    const source = `import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as fs from 'node:fs';\nimport type { Range } from '../src/range';\nimport util from 'node:util';\nimport { max } from '../src';\n${BODY}`;
    expect(tidied(source)).toBe(`import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { max } from '../src';\n${BODY}`);
  });

  it('keeps what is used under another name, as a type, or in a default-and-named import, and leaves side-effect imports', () => {
    const source = `import './setup';\nimport { describe, it } from 'node:test';\nimport assert, { deepEqual } from 'node:assert/strict';\nimport { max as biggest, min } from '../src';\nimport type { Range } from '../src/range';\nconst r: Range | undefined = undefined;\ndescribe('max', () => {\n  it('takes the larger', () => assert.equal(biggest([1, 2]), 2));\n});\n`;
    expect(tidied(source)).toBe(source.replace('import assert, { deepEqual }', 'import assert').replace('{ max as biggest, min }', '{ max as biggest }'));
  });

  it('leaves a file that does not parse as it is', () => {
    expect(tsUnusedImports('test/a.test.ts', "import { x } from 'y';\nfunction (")).toEqual([]);
  });
});
