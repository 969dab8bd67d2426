/**
 * What a command is: one module owns its name, what it does in a line, how it
 * is called (one form a line, every flag it takes named there) and its
 * handler. `bugbench --help`, `bugbench CMD --help` and the CLI reference in
 * docs/reference/commands.md are made from these modules (scripts/docs-reference.mjs).
 */
import type { ParseArgsConfig } from 'node:util';

export type Flags = NonNullable<ParseArgsConfig['options']>;

export interface CommandModule {
  name: string;
  /** What it does, in one line. */
  summary: string;
  /** How it is called, one form a line; every flag of `flags` appears in them (test/unit/commands/command-modules.test.ts). */
  usage: string[];
  /** Every flag it takes, in all its forms. */
  flags: Flags;
  run(args: string[]): Promise<number>;
}

/** The help of one command: what it does and how it is called. */
export function commandHelp(command: CommandModule): string {
  return `${command.summary}\n\n${command.usage.join('\n')}\n`;
}

/** The help of bugbench: every command with what it does. */
export function overview(commands: readonly CommandModule[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  const rows = commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`);
  return ['usage: bugbench <command> [options]', '', 'commands:', ...rows, '', 'Add --help after a command for its options; `bugbench --version` prints the version.'].join('\n');
}

/** The flags a module takes that its usage does not name, as `--name` (or `-k`). */
export function unnamedFlags(command: CommandModule): string[] {
  const text = command.usage.join('\n');
  return Object.entries(command.flags)
    .filter(([name, flag]) => !text.includes(`--${name}`) && !(flag.short && new RegExp(`(^|[\\s\\[])-${flag.short}\\b`).test(text)))
    .map(([name]) => `--${name}`);
}

/** The reference of every command, in Markdown: what docs/reference/commands.md holds between its generated marks. */
export function commandsReference(commands: readonly CommandModule[]): string {
  return commands.map((c) => [`### \`bugbench ${c.name}\``, '', c.summary, '', '```', ...c.usage, '```', ''].join('\n')).join('\n');
}
