/** Flag parsing shared by the commands: node's parseArgs, with its errors turned into UsageError. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<T extends Options>(command: string, args: string[], options: T, positionals = 0) {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: positionals > 0, strict: true });
    if (parsed.positionals.length > positionals) {
      throw new UsageError(`${command}: unexpected argument "${parsed.positionals[positionals]}"`);
    }
    return parsed;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${command}: ${flagProblem(error as Error & { code?: string }, command)}`);
  }
}

/** Node's parseArgs errors in bugbench's words: one line, the flag named, what to do. */
export function flagProblem(error: Error & { code?: string }, command: string): string {
  const flag = /'(-[^'\s]*)/.exec(error.message)?.[1] ?? '';
  const shown = flag.replace(/["'`]/g, '');
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Unknown option '${shown}'; \`bugbench ${command} --help\` lists the options`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (error.message.includes('does not take an argument')) return `${shown} takes no value`;
      if (error.message.includes('ambiguous')) return `${shown} needs a value (write ${shown}=-VALUE for one that starts with a dash)`;
      return `${shown} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${/'([^']*)'/.exec(error.message)?.[1] ?? ''}"`;
    default:
      return error.message.split('\n')[0]!;
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Progress lines go to stderr so stdout stays clean for --json. */
export function stderrProgress(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** An integer flag of at least `min`, or undefined when not given. */
export function positiveInt(flag: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${flag} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

/** A number flag above zero, or undefined when not given. */
export function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n > 0)) throw new UsageError(`--${flag} must be a positive number, got "${value}"`);
  return n;
}
