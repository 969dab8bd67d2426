/** Flag parsing shared by the commands: node's parseArgs, with its errors turned into UsageError. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<T extends Options>(command: string, args: string[], options: T, positionals = 0) {
  try {
    const parsed = parseArgs({ args: negativesAsValues(args, options), options, allowPositionals: positionals > 0, strict: true });
    if (parsed.positionals.length > positionals) {
      throw new UsageError(`${command}: unexpected argument "${parsed.positionals[positionals]}"`);
    }
    return parsed;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${command}: ${flagProblem(error as Error & { code?: string }, command)}`);
  }
}

/**
 * The spellings parseArgs does not read as a value, written as `--name=VALUE`:
 * a negative number after a flag that takes a value (`-n -2`, `--seed -1`),
 * which it calls ambiguous, and `-n=VALUE`, whose value it reads as "=VALUE".
 * The number's own check then says what is wrong with it.
 */
export function negativesAsValues(args: readonly string[], options: Options): string[] {
  const byShort = new Map(Object.entries(options).flatMap(([name, option]) => (option.short ? [[option.short, name] as const] : [])));
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const flag = /^(?:--([^=]+)|-([^-=]))(?:=(.*))?$/s.exec(arg);
    const name = flag ? (flag[1] ?? byShort.get(flag[2]!)) : undefined;
    if (!flag || !name || options[name]?.type !== 'string') out.push(arg);
    else if (flag[3] !== undefined) out.push(`--${name}=${flag[3]}`);
    else if (/^-\d/.test(args[i + 1] ?? '')) out.push(`--${name}=${args[++i]}`);
    else out.push(arg);
  }
  return out;
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

/** A flag as the user writes it: `-n` for a one-letter name, `--seed` otherwise. */
export function flagName(flag: string): string {
  return flag.length === 1 ? `-${flag}` : `--${flag}`;
}

/** An integer flag of at least `min`, or undefined when not given. */
export function positiveInt(flag: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === '' ? NaN : Number(value);
  if (!Number.isInteger(n)) throw new UsageError(`${flagName(flag)} must be a whole number ≥ ${min}, got "${value}"`);
  if (n < min) throw new UsageError(`${flagName(flag)} must be ≥ ${min}, got ${n}`);
  return n;
}

/** A number flag above zero, or undefined when not given. */
export function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === '' ? NaN : Number(value);
  if (Number.isNaN(n)) throw new UsageError(`${flagName(flag)} must be a number above 0, got "${value}"`);
  if (!(n > 0)) throw new UsageError(`${flagName(flag)} must be above 0, got ${n}`);
  return n;
}
