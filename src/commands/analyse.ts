/** `bugbench analyse <bug-id> [--policy anthropic|openai|offline] [--model M] [--base-url URL] [--json]`: (re)writes a valid bug's report, category and patch statistics. */
import { UsageError } from '../errors.js';
import { analyseBug } from '../pipeline/analysis.js';
import { openStore } from '../store/store.js';
import { parseFlags, printJson } from './args.js';
import { POLICY_CHOICES, POLICY_FLAGS, policySettings } from './policy-flags.js';
import type { CommandModule } from './command.js';

const FLAGS = { ...POLICY_FLAGS, json: { type: 'boolean', default: false } } as const;

export async function analyseCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('analyse', args, FLAGS, 1);
  const id = positionals[0];
  if (!id) throw new UsageError('analyse: give a bug id');
  const analysis = await analyseBug({ store: openStore(), id }, policySettings('analyse', values));
  if (values.json) printJson(analysis);
  else {
    const s = analysis.stats;
    process.stdout.write(
      `${id}: category ${analysis.category}; report by ${analysis.report.source === 'model' ? analysis.report.model : "bugbench's template"}; ` +
        `${s.linesOfCode} code / ${s.linesOfDocumentation} doc line(s), ${s.filesEdited} edited, ${s.filesCreated} created, ${s.diffTokens} tokens\n`,
    );
  }
  return 0;
}

export const command: CommandModule = {
  name: 'analyse',
  summary: "write a valid bug's report, category and patch statistics (BugPilot)",
  usage: [
    `bugbench analyse <bug-id> [--policy ${POLICY_CHOICES}] [--model M] [--base-url URL] [--api-key KEY] [--price-in USD] [--price-out USD] [--json]`,
  ],
  flags: FLAGS,
  run: analyseCommand,
};
