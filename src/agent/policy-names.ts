/**
 * The policies' names, apart from how each is made (policies.ts, whose table
 * must have a row for each): what the command line lists in its help without
 * loading any model's code.
 */
export type PolicyName = 'anthropic' | 'openai' | 'offline';
export const POLICIES: PolicyName[] = ['anthropic', 'openai', 'offline'];
