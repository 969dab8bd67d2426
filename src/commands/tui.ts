/** `bugbench tui`: the Ink workbench; refuses politely without a terminal. */
import { UsageError } from '../errors.js';
import { parseFlags } from './args.js';

export async function tuiCommand(args: string[]): Promise<number> {
  parseFlags('tui', args, {});
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('tui needs an interactive terminal; use the headless commands (see `bugbench --help`) in scripts');
  }
  const { runWorkbench } = await import('../ui/app.js');
  return runWorkbench();
}
