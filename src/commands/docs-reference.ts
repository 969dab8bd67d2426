/**
 * The parts of the docs made from the code: the CLI reference in
 * docs/reference/commands.md (between its generated marks) from the command
 * modules, and docs/reference/keys.md from the workbench's screens table.
 * scripts/docs-reference.mjs writes them; test/unit/commands/docs-reference.test.ts
 * fails when they are stale.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandModules } from './registry.js';
import { GLOBAL_KEYS, SCREENS } from '../ui/screens.js';
import { commandsReference } from './command.js';

export const COMMANDS_DOC = join('docs', 'reference', 'commands.md');
export const KEYS_DOC = join('docs', 'reference', 'keys.md');

const BEGIN = '<!-- generated from src/commands by scripts/docs-reference.mjs: do not edit by hand -->';
const END = '<!-- end of generated -->';

/** `text` with what lies between the generated marks replaced by `generated` (the marks and the part are added at the end when missing). */
export function withGenerated(text: string, generated: string): string {
  const block = `${BEGIN}\n\n${generated.trim()}\n\n${END}`;
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return `${text.trimEnd()}\n\n## Every command and flag\n\n${block}\n`;
  return text.slice(0, start) + block + text.slice(end + END.length);
}

/** A Markdown table cell: pipes escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The workbench's keys, screen by screen, as the `?` overlay lists them. */
export function keysReference(): string {
  const table = (rows: [string, string][]) => ['| key | does |', '|---|---|', ...rows.map(([key, does]) => `| \`${cell(key)}\` | ${cell(does)} |`)].join('\n');
  const parts = [
    '# Workbench keys',
    '',
    `${BEGIN.replace('src/commands', 'src/ui/screens.ts')}`,
    '',
    'Everywhere:',
    '',
    table(GLOBAL_KEYS),
    ...SCREENS.flatMap((screen) => ['', `## ${screen.key} ${screen.title}`, '', table(screen.keys)]),
    '',
    END,
    '',
  ];
  return parts.join('\n');
}

/** Each generated doc's path (from the repository's root) and the text it should hold. */
export async function referenceDocs(root: string): Promise<{ path: string; text: string }[]> {
  const commands = withGenerated(readFileSync(join(root, COMMANDS_DOC), 'utf8'), commandsReference(await commandModules()));
  return [
    { path: COMMANDS_DOC, text: commands },
    { path: KEYS_DOC, text: keysReference() },
  ];
}
