import { beforeAll, describe, expect, it } from 'vitest';
import { applySplices, loadGrammars } from '../../../src/agent/offline/syntax.js';
import { tsUnusedImports } from '../../../src/agent/offline/ts-imports.js';

beforeAll(async () => {
  await loadGrammars();
});

/** The file once the imports nothing uses are gone (given `before`: only those its code used there). */
const tidied = (source: string, file = 'test/a.test.ts', before?: string) => applySplices(source, tsUnusedImports(file, source, before));

const BODY = "\ndescribe('max', () => {\n  it('takes the larger', () => assert.equal(max([1, 2]), 2));\n});\n";

describe('tsUnusedImports', () => {
  it('deletes the named imports nothing uses, with their commas, wherever they stand', () => {
    const head = "import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\n";
    expect(tidied(`${head}import { compare, max, rsort } from '../src';\n${BODY}`)).toBe(`${head}import { max } from '../src';\n${BODY}`);
    expect(tidied(`${head}import { max, rsort, sort } from '../src';\n${BODY}`)).toBe(`${head}import { max } from '../src';\n${BODY}`);
    expect(tidied(`${head}import {\n  compare,\n  max,\n  sort,\n} from '../src';\n${BODY}`)).toBe(`${head}import {\n  max,\n} from '../src';\n${BODY}`);
    // One a line: an unused one goes with its line, its comment too.
    expect(tidied(`${head}import {\n  max, // the larger\n  sort // in place\n} from '../src';\n${BODY}`)).toBe(`${head}import {\n  max, // the larger\n} from '../src';\n${BODY}`);
  });

  it('deletes a whole import when nothing it binds is used, default, namespace and type imports alike', () => {
    const source = `import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as fs from 'node:fs';\nimport type { Range } from '../src/range';\nimport util from 'node:util';\nimport { max } from '../src';\n${BODY}`;
    expect(tidied(source)).toBe(`import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { max } from '../src';\n${BODY}`);
  });

  it('keeps what is used under another name, as a type, or in a default-and-named import, and leaves side-effect imports', () => {
    const source = `import './setup';\nimport { describe, it } from 'node:test';\nimport assert, { deepEqual } from 'node:assert/strict';\nimport { max as biggest, min } from '../src';\nimport type { Range } from '../src/range';\nconst r: Range | undefined = undefined;\ndescribe('max', () => {\n  it('takes the larger', () => assert.equal(biggest([1, 2]), 2));\n});\n`;
    expect(tidied(source)).toBe(source.replace('import assert, { deepEqual }', 'import assert').replace('{ max as biggest, min }', '{ max as biggest }'));
    const namespace = "import assert, * as strict from 'node:assert/strict';\nassert.ok(true);\n";
    expect(tidied(namespace)).toBe("import assert from 'node:assert/strict';\nassert.ok(true);\n");
  });

  it('leaves the imports the file before did not use either: used in ways no syntax tree shows', () => {
    const before = "import React from 'react';\nimport { render } from './render';\nimport { Badge } from './badge';\n\nit('draws', () => render(<div />));\nit('badges', () => render(<Badge />));\n";
    const after = "import React from 'react';\nimport { render } from './render';\nimport { Badge } from './badge';\n\nit('draws', () => render(<div />));\n";
    expect(tidied(after, 'test/a.test.tsx', before)).toBe(after.replace("import { Badge } from './badge';\n\n", ''));
  });

  it('keeps loading a JavaScript module of which no name is left, which TypeScript would not', () => {
    const source = "import { db } from './db.js';\nimport { it } from 'node:test';\n\nit('runs', () => {});\n";
    expect(tidied(source, 'test/a.test.mjs')).toBe(source.replace("import { db } from './db.js';", "import './db.js';"));
    expect(tidied(source, 'test/a.test.ts')).toBe(source.replace("import { db } from './db.js';\n", ''));
  });

  it('leaves a file that does not parse as it is', () => {
    expect(tsUnusedImports('test/a.test.ts', "import { x } from 'y';\nfunction (")).toEqual([]);
  });
});
