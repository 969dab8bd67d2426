/**
 * The `bugbench` command line: reads the command, hands it to its module, and
 * turns errors into one line on stderr and an exit code (2 for bad usage, 1 for
 * everything else).
 */
import { BugbenchError, UsageError, errorMessage } from './errors.js';

export type Command = (args: string[]) => Promise<number>;

/** Each command's module is loaded only when it runs, so start-up stays short. */
const COMMANDS: Record<string, { load: () => Promise<Command>; summary: string }> = {
  tui: { load: async () => (await import('./commands/tui.js')).tuiCommand, summary: 'open the workbench' },
  doctor: {
    load: async () => (await import('./commands/doctor.js')).doctorCommand,
    summary: 'check (and with --fix, set up) the engine and images',
  },
  images: {
    load: async () => (await import('./commands/images.js')).imagesCommand,
    summary: 'list repo images; `images build <dir>` builds one',
  },
  check: {
    load: async () => (await import('./commands/check.js')).checkCommand,
    summary: 'run the nine consistency checks on a bug or artifact folder',
  },
  eval: { load: async () => (await import('./commands/eval.js')).evalCommand, summary: 'evaluate a candidate patch against a bug' },
  inject: {
    load: async () => (await import('./commands/inject.js')).injectCommand,
    summary: 'run injection rollouts on an image and check what they submit',
  },
  replay: { load: async () => (await import('./commands/replay.js')).replayCommand, summary: 'play a recorded rollout back' },
};

export function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(14)}${c.summary}`);
  return ['usage: bugbench <command> [options]', '', 'commands:', ...rows, '', 'Add --help after a command for its options.'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw new UsageError(`unknown command "${name}"; run \`bugbench --help\` for the list`);
    return await (await command.load())(rest);
  } catch (error) {
    const message = error instanceof BugbenchError ? error.message : `unexpected error: ${errorMessage(error)}`;
    process.stderr.write(`bugbench: ${message}\n`);
    if (!(error instanceof BugbenchError) && process.env.BUGBENCH_DEBUG) console.error(error);
    return error instanceof UsageError ? 2 : 1;
  }
}
