/**
 * Small JavaScript packages made on the spot. `textkit` (slugs, word
 * wrapping, case changes) is tested with node's built-in runner (`node
 * --test`, TAP on a pipe): twelve tests, no dependencies, and a history of
 * four commits of which one is a fix that came with its test. `stackjs` is
 * tested with vitest, a devDependency installed from the npm registry while
 * its image is built (no lockfile: `npm install`).
 */
import { makeGitRepo } from './git-repo.js';

const PACKAGE_JSON = `${JSON.stringify(
  { name: 'textkit', version: '0.1.0', type: 'module', main: 'src/index.js', scripts: { test: 'node --test' }, license: 'MIT' },
  null,
  2,
)}\n`;

const SLUG_V1 = `/** A lower-case, dash-separated form of \`text\` for URLs. */
export function slugify(text) {
  return text
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .replace(/^-+|-+$/g, '');
}
`;

const SLUG_V2 = SLUG_V1.replace(".replace(/[^a-z0-9]/g, '-')", ".replace(/[^a-z0-9]+/g, '-')");

const WRAP = `/** Breaks \`text\` into lines of at most \`width\` characters, at spaces; a longer word gets a line of its own. */
export function wrap(text, width) {
  if (width < 1) throw new RangeError('width must be at least 1');
  const lines = [];
  let line = '';
  for (const word of text.split(/\\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? \`\${line} \${word}\` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
`;

const CASE = `const words = (text) => text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean);

/** helloWorld from "hello world", "Hello-World" or "hello_world". */
export function camelCase(text) {
  return words(text)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
}

/** hello_world from "helloWorld" or "Hello World". */
export function snakeCase(text) {
  return words(text).map((w) => w.toLowerCase()).join('_');
}
`;

const INDEX = "export { slugify } from './slug.js';\nexport { wrap } from './wrap.js';\nexport { camelCase, snakeCase } from './case.js';\n";

const SLUG_TEST_V1 = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { slugify } from '../src/index.js';

describe('slugify', () => {
  it('lowers and dashes words', () => assert.equal(slugify('Hello World'), 'hello-world'));
  it('drops accents', () => assert.equal(slugify('Crème Brûlée'), 'creme-brulee'));
  it('trims dashes at the ends', () => assert.equal(slugify('  -Edge case- '), 'edge-case'));
  it('keeps digits', () => assert.equal(slugify('Top 10 lists'), 'top-10-lists'));
});
`;

const SLUG_TEST_V2 = SLUG_TEST_V1.replace(
  "  it('keeps digits'",
  "  it('collapses runs of separators', () => assert.equal(slugify('a  --  b'), 'a-b'));\n  it('keeps digits'",
);

const WRAP_TEST = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { wrap } from '../src/index.js';

describe('wrap', () => {
  it('breaks at spaces', () => assert.deepEqual(wrap('the quick brown fox', 10), ['the quick', 'brown fox']));
  it('gives a long word its own line', () => assert.deepEqual(wrap('a extraordinarily b', 5), ['a', 'extraordinarily', 'b']));
  it('returns no lines for blank text', () => assert.deepEqual(wrap('   ', 8), []));
  it('refuses a width below one', () => assert.throws(() => wrap('x', 0), RangeError));
});
`;

const CASE_TEST = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { camelCase, snakeCase } from '../src/index.js';

describe('case', () => {
  it('camel-cases spaced words', () => assert.equal(camelCase('hello big world'), 'helloBigWorld'));
  it('camel-cases snake words', () => assert.equal(camelCase('user_id'), 'userId'));
  it('snake-cases camel words', () => assert.equal(snakeCase('parseHttpHeader'), 'parse_http_header'));
});
`;

/** The fixture's tests at its last commit, as TAP names them. */
export const NODE_TESTS = [
  'lowers and dashes words', 'drops accents', 'trims dashes at the ends', 'collapses runs of separators', 'keeps digits',
  'breaks at spaces', 'gives a long word its own line', 'returns no lines for blank text', 'refuses a width below one',
  'camel-cases spaced words', 'camel-cases snake words', 'snake-cases camel words',
];

/**
 * A test file that node 18 fails as a whole in every run: a timer throws
 * after its test has ended. Over a folder, node then gives the file's point
 * the number of the file's place, which another test already has.
 */
export const LATE_TIMER_TEST = `import { test } from 'node:test';

test('leaves a timer behind', () => {
  setTimeout(() => {
    throw new Error('late failure');
  }, 1);
});
test('after the timer', () => {});
`;

/** `more`: files of a last commit, when given. */
export function makeNodeProject(name = 'textkit', more?: Record<string, string>): Promise<string> {
  return makeGitRepo(name, [
    {
      message: 'Add slugify',
      files: { 'package.json': PACKAGE_JSON, 'README.md': '# textkit\n', 'src/index.js': "export { slugify } from './slug.js';\n", 'src/slug.js': SLUG_V1, 'test/slug.test.js': SLUG_TEST_V1 },
    },
    { message: 'Add wrap and case helpers', files: { 'src/index.js': INDEX, 'src/wrap.js': WRAP, 'src/case.js': CASE, 'test/wrap.test.js': WRAP_TEST, 'test/case.test.js': CASE_TEST } },
    { message: 'Fix slugify leaving runs of dashes', files: { 'src/slug.js': SLUG_V2, 'test/slug.test.js': SLUG_TEST_V2 } },
    { message: 'Document the helpers', files: { 'README.md': '# textkit\n\n`slugify`, `wrap`, `camelCase`, `snakeCase`.\n' } },
    ...(more ? [{ message: 'More tests', files: more }] : []),
  ]);
}

const STACK = `/** A last-in, first-out stack with a size limit. */
export class Stack {
  constructor(limit = Infinity) {
    this.items = [];
    this.limit = limit;
  }

  push(item) {
    if (this.items.length >= this.limit) throw new RangeError('stack is full');
    this.items.push(item);
    return this;
  }

  pop() {
    return this.items.pop();
  }

  peek() {
    return this.items[this.items.length - 1];
  }

  get size() {
    return this.items.length;
  }
}
`;

const STACK_TEST = `import { describe, expect, it } from 'vitest';
import { Stack } from '../src/stack.js';

describe('Stack', () => {
  it('pops what was pushed last', () => {
    expect(new Stack().push(1).push(2).pop()).toBe(2);
  });
  it('peeks without popping', () => {
    const s = new Stack().push('a');
    expect(s.peek()).toBe('a');
    expect(s.size).toBe(1);
  });
  it('pops undefined when empty', () => {
    expect(new Stack().pop()).toBeUndefined();
  });
  it('refuses to grow past its limit', () => {
    expect(() => new Stack(1).push(1).push(2)).toThrow(RangeError);
  });
});
`;

/** The vitest fixture's tests, as `vitest run --reporter=verbose` names them. */
export const VITEST_TESTS = ['pops what was pushed last', 'peeks without popping', 'pops undefined when empty', 'refuses to grow past its limit'];

export function makeVitestProject(name = 'stackjs'): Promise<string> {
  const manifest = { name, version: '0.1.0', type: 'module', scripts: { test: 'vitest run --reporter=verbose' }, devDependencies: { vitest: '1.6.0' } };
  return makeGitRepo(name, [
    { message: 'Add a stack', files: { 'package.json': `${JSON.stringify(manifest, null, 2)}\n`, '.gitignore': 'node_modules/\n', 'src/stack.js': STACK } },
    { message: 'Test the stack with vitest', files: { 'test/stack.test.js': STACK_TEST } },
  ]);
}
