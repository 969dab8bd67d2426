/**
 * The `bugbench` command line: reads the command, hands it to its module, and
 * turns errors into one line on stderr and an exit code (2 for bad usage, 75
 * when the container engine failed, 130 when cancelled, 1 for everything else).
 */
import { readFileSync } from 'node:fs';
import { commandHelp, overview } from './commands/command.js';
import { COMMANDS, commandModules } from './commands/registry.js';
import { BugbenchError, UsageError, errorMessage } from './errors.js';
import { closestName } from './commands/suggest.js';
import { unreachableEngine } from './sandbox/engine-errors.js';

/** The version of this package, from its package.json. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** A reader that stops reading (`bugbench runs | head -1`) ends the output, not the program with a stack trace. */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}

export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipe();
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`bugbench ${version()}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    process.stdout.write(`${overview(await commandModules())}\n`);
    return name ? 0 : 2;
  }
  // `bugbench help inject` is `bugbench inject --help`, as git and npm read it.
  if (name === 'help') return main([rest[0]!, '--help']);
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (!load) {
      const near = closestName(name, Object.keys(COMMANDS));
      throw new UsageError(`unknown command "${name}"; ${near ? `did you mean \`bugbench ${near}\`? ` : ''}run \`bugbench --help\` for the list`);
    }
    const command = await load();
    if (rest.includes('--help') || (rest.includes('-h') && !Object.values(command.flags).some((flag) => flag.short === 'h'))) {
      process.stdout.write(commandHelp(command));
      return 0;
    }
    return await command.run(rest);
  } catch (thrown) {
    // An engine that is not there, wherever it was first asked, is said so (exit 75), not as an unexpected error.
    const error = unreachableEngine(thrown) ?? thrown;
    const message = error instanceof BugbenchError ? error.message : `unexpected error: ${errorMessage(error)}`;
    const exitCode = error instanceof BugbenchError ? error.exitCode : 1;
    process.stderr.write(`bugbench: ${message}\n`);
    // A script that asked for JSON gets the failure as JSON too, where it reads the results.
    if (rest.includes('--json')) process.stdout.write(`${JSON.stringify({ error: { code: error instanceof BugbenchError ? error.code : 'BB_UNEXPECTED', message, exitCode } })}\n`);
    if (!(error instanceof BugbenchError) && process.env.BUGBENCH_DEBUG) console.error(error);
    return exitCode;
  }
}
