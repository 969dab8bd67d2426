/**
 * The documentation holds together: README.md stays a short front page, every
 * relative link in README.md, CONTRIBUTING.md and docs/ reaches a file (and a
 * heading in it), and what the old one-file README said is still somewhere —
 * its commands in the command reference, its sections under their headings.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import { Lexer, marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const DOCS = [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...markdownUnder(join(ROOT, 'docs'))];

function tokensOf(path: string): Token[] {
  return Lexer.lex(readFileSync(path, 'utf8'));
}

/** Every token of a document, tables and lists included. */
function allTokens(path: string): Token[] {
  const found: Token[] = [];
  marked.walkTokens(tokensOf(path), (token) => void found.push(token));
  return found;
}

/** What a heading or a cell reads as once rendered: code spans and emphasis without their marks. */
function plainText(tokens: Token[]): string {
  return tokens.map((t) => ('tokens' in t && t.tokens ? plainText(t.tokens) : 'text' in t ? t.text : '')).join('');
}

function headingsOf(path: string): string[] {
  return allTokens(path).filter((t): t is Tokens.Heading => t.type === 'heading').map((h) => plainText(h.tokens));
}

/** The anchors GitHub gives the headings of a file (repeated headings get -1, -2, …). */
function anchorsOf(path: string): Set<string> {
  const slugger = new GithubSlugger();
  return new Set(headingsOf(path).map((text) => slugger.slug(text)));
}

function relativeLinks(path: string): string[] {
  return allTokens(path)
    .filter((t): t is Tokens.Link | Tokens.Image => t.type === 'link' || t.type === 'image')
    .map((link) => link.href)
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
}

describe('the documentation', () => {
  it('has README.md, CONTRIBUTING.md and the guide and reference in docs/', () => {
    const names = DOCS.map((path) => relative(ROOT, path));
    for (const name of ['README.md', 'CONTRIBUTING.md', 'docs/architecture.md', 'docs/reference/commands.md', 'docs/guide/images.md']) {
      expect(names).toContain(name);
    }
  });

  it.each(DOCS.map((path) => [relative(ROOT, path), path]))('%s links only to files and headings that exist', (_name, path) => {
    const broken: string[] = [];
    for (const href of relativeLinks(path)) {
      const [file = '', anchor] = href.split('#');
      const target = file === '' ? path : resolve(dirname(path), decodeURIComponent(file));
      if (!existsSync(target)) {
        broken.push(`${href}: no file ${relative(ROOT, target)}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(target).isDirectory() || !target.endsWith('.md')) broken.push(`${href}: an anchor into a file that is not markdown`);
      else if (!anchorsOf(target).has(anchor)) broken.push(`${href}: no heading #${anchor} in ${relative(ROOT, target)}`);
    }
    expect(broken).toEqual([]);
  });

  it('keeps README.md a front page of at most 150 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(150);
  });

  it("keeps the README's promise: one command for the workbench, one for the tests, which CI runs", () => {
    const quickStart = tokensOf(join(ROOT, 'README.md')).find((t): t is Tokens.Code => t.type === 'code');
    expect(quickStart?.text.split('\n')).toEqual([
      'npm ci && npm start      # the workbench on the bundled sample repositories',
      'npm ci && npm test       # the test suite',
    ]);
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toMatch(/^npm test\b/m);
  });
});

describe('nothing of the one-file README was lost', () => {
  /** The first column of every table row of a file. */
  function firstCells(path: string): string[] {
    return allTokens(path)
      .filter((t): t is Tokens.Table => t.type === 'table')
      .flatMap((table) => table.rows.map((row) => plainText(row[0]!.tokens)));
  }

  // The commands of the old README's command table, as each row began.
  const OLD_COMMAND_ROWS = [
    'bugbench tui', 'bugbench doctor', 'bugbench images', 'bugbench images add', 'bugbench images build', 'bugbench inject',
    'bugbench inject --images FILE',
    'bugbench inject … --cluster slurm', 'bugbench inject --resume', 'bugbench cancel', 'bugbench runs', 'bugbench import',
    'bugbench bugs', 'bugbench show', 'bugbench accept', 'bugbench reject', 'bugbench export', 'bugbench queue submit',
    'queue list', 'queue status', 'queue logs', 'queue cancel', 'bugbench check', 'bugbench solve',
    'bugbench solve <bug-id> … --cluster slurm', 'bugbench higher-order', 'bugbench analyse', 'bugbench eval', 'bugbench replay',
  ];

  it.each(OLD_COMMAND_ROWS)('docs/reference/commands.md has a row for `%s`', (command) => {
    const cells = firstCells(join(ROOT, 'docs/reference/commands.md'));
    const pattern = new RegExp(`(^|, )${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |,|$)`);
    expect(cells.filter((cell) => pattern.test(cell))).not.toEqual([]);
  });

  // Where each section of the old README went: its heading (or a longer one beginning with it) in that file.
  const OLD_SECTIONS: [string, string][] = [
    ['Quick start', 'README.md'], ['The workbench', 'README.md'],
    ['Commands', 'docs/reference/commands.md'], ['Bug artifacts and checks', 'docs/reference/artifact-and-checks.md'],
    ['Bug library', 'docs/reference/artifact-and-checks.md'], ['Export formats', 'docs/reference/export-formats.md'],
    ['Environment', 'docs/reference/environment.md'], ['Workspace', 'docs/reference/workspace.md'],
    ['Agents', 'docs/guide/models.md'], ['Your own model with vLLM', 'docs/guide/models.md'],
    ['Images', 'docs/guide/images.md'], ['Bring your own images', 'docs/guide/images.md'],
    ['Sample repositories', 'docs/guide/images.md'], ['Sandbox', 'docs/guide/images.md'],
    ['Languages', 'docs/guide/languages.md'], ['Solving and rewards', 'docs/guide/solving.md'],
    ['Training engines', 'docs/guide/training.md'], ['Several engines and clusters', 'docs/guide/clusters.md'],
    ['Podman', 'docs/guide/clusters.md'], ['Injection on Slurm', 'docs/guide/clusters.md'],
    ['Development', 'CONTRIBUTING.md'], ['Architecture', 'docs/architecture.md'],
  ];

  it.each(OLD_SECTIONS)('"%s" is a heading of %s', (title, file) => {
    expect(headingsOf(join(ROOT, file)).some((heading) => heading.startsWith(title))).toBe(true);
  });

  /** Every `BUGBENCH_*` variable the code reads from an environment, from src/ (a file at a time). */
  function variablesRead(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return variablesRead(path);
      if (!/\.tsx?$/.test(entry.name)) return [];
      return [...readFileSync(path, 'utf8').matchAll(/env(?:\.|\[['"])(BUGBENCH_[A-Z0-9_]+)/g)].map((m) => m[1]!);
    });
  }

  it('names every BUGBENCH_ variable the code reads in docs/reference/environment.md', () => {
    const read = [...new Set(variablesRead(join(ROOT, 'src')))].sort();
    expect(read).toContain('BUGBENCH_HOME');
    const named = firstCells(join(ROOT, 'docs/reference/environment.md')).join(' ');
    expect(read.filter((name) => !new RegExp(`\\b${name}\\b`).test(named))).toEqual([]);
  });

  it('names every benchmark script of package.json in CONTRIBUTING.md', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    const benches = scripts.filter((name) => name.startsWith('bench:'));
    expect(benches.length).toBeGreaterThan(0);
    expect(benches.filter((name) => !contributing.includes(`npm run ${name}`))).toEqual([]);
  });
});
