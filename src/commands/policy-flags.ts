/**
 * The flags that choose a run's model, the same on `inject`, `solve` and
 * `analyse`: `--policy anthropic|openai|offline`, `--model NAME`,
 * `--base-url URL` and `--api-key KEY` (openai), `--price-in/--price-out`
 * (dollars per million tokens). Settings are stored with the run as they are,
 * so the key never enters them: it becomes this process's OPENAI_API_KEY,
 * where the openai policy reads it (a resumed run or a cluster task reads the
 * variable, or the config file, again).
 */
import { defaultPolicy, isPolicy, POLICIES, type ModelSettings } from '../agent/policies.js';
import { UsageError } from '../errors.js';

export const POLICY_FLAGS = {
  policy: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'price-in': { type: 'string' },
  'price-out': { type: 'string' },
} as const;

/** "anthropic|openai|offline": every policy, from where the policies are named. */
export const POLICY_CHOICES = POLICIES.join('|');

type PolicyValues = { [K in keyof typeof POLICY_FLAGS]?: string };

function price(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !(n >= 0)) throw new UsageError(`--${flag} must be dollars per million tokens (0 or more), got "${value}"`);
  return n;
}

/** The model settings the flags describe (the policy defaults to what this machine is set up for); `--api-key` goes to `env`. */
export function policySettings(command: string, values: PolicyValues, env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const policy = values.policy ?? defaultPolicy();
  if (!isPolicy(policy)) throw new UsageError(`${command}: --policy must be one of ${POLICIES.join(', ')}, got "${policy}"`);
  if (policy !== 'openai') {
    const stray = (['base-url', 'api-key'] as const).filter((flag) => values[flag] !== undefined);
    if (stray.length > 0) throw new UsageError(`${command}: --${stray.join(' and --')} ${stray.length === 1 ? 'goes' : 'go'} with --policy openai`);
  }
  if (values['api-key'] !== undefined) env.OPENAI_API_KEY = values['api-key'];
  const settings: ModelSettings = {
    policy,
    model: values.model,
    baseUrl: values['base-url'],
    priceIn: price('price-in', values['price-in']),
    priceOut: price('price-out', values['price-out']),
  };
  return JSON.parse(JSON.stringify(settings)) as ModelSettings;
}
