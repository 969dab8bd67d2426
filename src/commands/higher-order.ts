/** `bugbench higher-order <bug-id> [--json]`: turns the bug's failed solver attempts into order-2 bugs and checks them. */
import { UsageError } from '../errors.js';
import { buildHigherOrder, offlineSolverNote } from '../pipeline/higher-order.js';
import { openWorkspace } from '../pipeline/startup.js';
import { parseFlags, printJson } from './args.js';
import { cancelOnInterrupt } from './interrupt.js';
import { lineReporter } from './reporter.js';
import type { CommandModule } from './command.js';

const FLAGS = { json: { type: 'boolean', default: false } } as const;

export async function higherOrderCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('higher-order', args, FLAGS, 1);
  const id = positionals[0];
  if (!id) throw new UsageError('higher-order: give a bug id whose solver attempts failed (see `bugbench solve`)');
  const store = await openWorkspace();
  const interrupt = cancelOnInterrupt('the higher-order checks');
  try {
    const result = await buildHigherOrder({ parentId: id }, { store, signal: interrupt.signal }, lineReporter({ json: values.json }));
    if (values.json) printJson({ parent: result.parent, bugs: result.bugs.map(({ id: bugId, attempt, valid, failedCheck }) => ({ id: bugId, attempt, valid, failedCheck })), skipped: result.skipped });
    else {
      process.stdout.write(`${result.parent}: ${result.bugs.length} order-2 bug(s), ${result.bugs.filter((b) => b.valid).length} valid\n`);
      for (const bug of result.bugs) process.stdout.write(`  ${bug.id}  from ${bug.attempt}  ${bug.status}${bug.failedCheck ? ` (${bug.failedCheck})` : ''}\n`);
      for (const skip of result.skipped) process.stdout.write(`  skipped ${skip.attempt}: ${skip.reason}\n`);
      const note = offlineSolverNote(result.skipped);
      if (note) process.stdout.write(`${note}; a model's failed attempts can make one: bugbench solve ${result.parent} --policy anthropic|openai\n`);
    }
    return interrupt.signal.aborted ? 130 : 0;
  } finally {
    interrupt.dispose();
  }
}

export const command: CommandModule = {
  name: 'higher-order',
  summary: "turn a bug's failed solver attempts into order-2 bugs and check them",
  usage: [
    'bugbench higher-order <bug-id> [--json]',
  ],
  flags: FLAGS,
  run: higherOrderCommand,
};
