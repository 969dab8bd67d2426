/** `bugbench accept <bug-id> [--reason R]` and `bugbench reject <bug-id> --reason R` */
import { UsageError } from '../errors.js';
import { acceptBug, rejectBug } from '../pipeline/review.js';
import { recoveredStore } from '../pipeline/startup.js';
import { parseFlags, printJson } from './args.js';
import { bugJson } from './bugs.js';
import type { CommandModule } from './command.js';

const FLAGS = { reason: { type: 'string' }, json: { type: 'boolean', default: false } } as const;

function reviewCommand(decision: 'accept' | 'reject') {
  return async (args: string[]): Promise<number> => {
    const { values, positionals } = parseFlags(decision, args, FLAGS, 1);
    const id = positionals[0];
    if (!id) throw new UsageError(`${decision}: give a bug id (see \`bugbench bugs --status valid\`)`);
    if (decision === 'reject' && !values.reason?.trim()) throw new UsageError('reject: give the reason with --reason R');
    const store = recoveredStore();
    const before = store.get('bugs', id)?.review;
    const bug = decision === 'accept' ? acceptBug(store, id, values.reason ?? null) : rejectBug(store, id, values.reason!);
    // Accepting an accepted bug again without a reason records nothing new: say it was so already.
    const already = before?.decision === 'accepted' && bug.review?.at === before.at && bug.review.by === before.by;
    if (values.json) printJson(bugJson(store, bug));
    else if (already) process.stdout.write(`${bug.id} was already accepted by ${before.by} (${before.at.slice(0, 10)})${before.reason ? `: ${before.reason}` : ''}; nothing changed\n`);
    else process.stdout.write(`${bug.id} ${bug.status} by ${bug.review?.by}${bug.review?.reason ? `: ${bug.review.reason}` : ''}\n`);
    // Changing a decision is allowed (every decision is kept in order), never silent.
    if (before && before.decision !== bug.review?.decision) {
      process.stderr.write(`note: this replaces its ${before.decision === 'accepted' ? 'acceptance' : 'rejection'} by ${before.by} (${before.at.slice(0, 10)})${before.reason ? `: ${before.reason}` : ''}; both stay in its review history (\`bugbench show ${bug.id}\`)\n`);
    }
    return 0;
  };
}

export const acceptCommand = reviewCommand('accept');
export const rejectCommand = reviewCommand('reject');

export const acceptModule: CommandModule = {
  name: 'accept',
  summary: 'accept a valid bug for the dataset',
  usage: ['bugbench accept <bug-id> [--reason R] [--json]'],
  flags: FLAGS,
  run: acceptCommand,
};

export const rejectModule: CommandModule = {
  name: 'reject',
  summary: 'reject a bug, with the reason',
  usage: ['bugbench reject <bug-id> --reason R [--json]'],
  flags: FLAGS,
  run: rejectCommand,
};
