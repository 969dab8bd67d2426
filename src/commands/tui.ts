/** `bugbench tui`: the Ink workbench; refuses politely without a terminal. */
import { UsageError } from '../errors.js';
import { parseFlags } from './args.js';
import type { CommandModule } from './command.js';

const FLAGS = {} as const;

export async function tuiCommand(args: string[]): Promise<number> {
  parseFlags('tui', args, FLAGS);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('tui needs an interactive terminal; use the headless commands (see `bugbench --help`) in scripts');
  }
  const [{ runWorkbench }, { workbenchCore }, { reapQuietly }] = await Promise.all([import('../ui/app.js'), import('../pipeline/workbench-core.js'), import('../pipeline/startup.js')]);
  // Containers of a bugbench that died go first, on every configured engine; if none answers yet, set-up reaps after starting one.
  await reapQuietly();
  return runWorkbench(workbenchCore());
}

export const command: CommandModule = {
  name: 'tui',
  summary: 'open the workbench',
  usage: [
    'bugbench tui',
  ],
  flags: FLAGS,
  run: tuiCommand,
};
