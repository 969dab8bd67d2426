/** `bugbench analyse <bug-id> [--policy anthropic|offline] [--model M] [--json]`: (re)writes a valid bug's report, category and patch statistics. */
import { UsageError } from '../errors.js';
import { analyseBug } from '../pipeline/analysis.js';
import { defaultPolicy, POLICIES, type PolicyName } from '../pipeline/policy.js';
import { openStore } from '../store/store.js';
import { parseFlags, printJson } from './args.js';

export async function analyseCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('analyse', args, { policy: { type: 'string' }, model: { type: 'string' }, json: { type: 'boolean', default: false } }, 1);
  const id = positionals[0];
  if (!id) throw new UsageError('analyse: give a bug id');
  const policy = (values.policy ?? defaultPolicy()) as PolicyName;
  if (!POLICIES.includes(policy)) throw new UsageError(`--policy must be one of ${POLICIES.join(', ')}, got "${policy}"`);
  const analysis = await analyseBug(openStore(), id, { policy, model: values.model });
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
