/**
 * The policies, found through one table: for each, how its model is made
 * (the same model for either role — Self-play SWE-RL's one policy that both
 * injects and solves), how it is checked before any container starts, how it
 * names itself in records, and whether this machine can use it. Adding a
 * model API is adding a row. The offline policy makes no model here: each role
 * has its own scripted agent, made by the caller.
 */
import { AnthropicModel, DEFAULT_MODEL } from './anthropic-model.js';
import type { Model } from './model.js';
import { endpointConfigured, resolveEndpoint } from './openai-endpoint.js';
import { OpenAIModel } from './openai-model.js';
import { POLICIES, type PolicyName } from './policy-names.js';
import { priceOf, type Price } from './pricing.js';

export { POLICIES, type PolicyName };

/** Which model a run uses: plain data, stored with the run as it is — so never a key (keys come from the environment or the config file). */
export interface ModelSettings {
  policy: PolicyName;
  model?: string;
  /** The server of the openai policy (else from OPENAI_BASE_URL or the workspace config). */
  baseUrl?: string;
  maxTokens?: number;
  /** Dollars per million input and output tokens (openai: default 0; anthropic: overrides the list price). */
  priceIn?: number;
  priceOut?: number;
}

/** Who made a bug or an attempt, as records keep it. */
export interface ModelIdentity {
  policy: PolicyName;
  model: string;
  baseUrl: string | null;
}

interface Policy {
  /** The model, for any role; undefined when the caller's scripted agent plays (offline). */
  make(settings: ModelSettings): Model | undefined;
  /** Fails with one line saying what to fix: a missing key, an unknown model, a server without tools. */
  verify(settings: ModelSettings): Promise<void>;
  /** The model's name as records keep it; undefined for the offline policy. */
  modelName(settings: ModelSettings): string | undefined;
  baseUrl(settings: ModelSettings): string | null;
  /** Whether this machine is set up for it (the workbench offers it then). */
  available(env: NodeJS.ProcessEnv): boolean;
}

function anthropicPrice(settings: ModelSettings): Price | undefined {
  if (settings.priceIn === undefined && settings.priceOut === undefined) return undefined;
  const list = priceOf(settings.model ?? DEFAULT_MODEL);
  return { inputPerMTok: settings.priceIn ?? list.inputPerMTok, outputPerMTok: settings.priceOut ?? list.outputPerMTok };
}

const anthropic = (s: ModelSettings) => new AnthropicModel({ model: s.model ?? DEFAULT_MODEL, maxTokens: s.maxTokens, price: anthropicPrice(s) });
const openai = (s: ModelSettings) =>
  new OpenAIModel({ baseUrl: s.baseUrl, model: s.model, maxTokens: s.maxTokens, priceIn: s.priceIn, priceOut: s.priceOut });

const TABLE: Record<PolicyName, Policy> = {
  anthropic: {
    make: anthropic,
    verify: (s) => anthropic(s).verify(),
    modelName: (s) => s.model ?? DEFAULT_MODEL,
    baseUrl: () => process.env.ANTHROPIC_BASE_URL || null,
    available: (env) => Boolean(env.ANTHROPIC_API_KEY),
  },
  openai: {
    make: openai,
    verify: (s) => openai(s).verify(),
    modelName: (s) => resolveEndpoint(s).model ?? '(no model named)',
    baseUrl: (s) => resolveEndpoint(s).baseUrl,
    available: endpointConfigured,
  },
  offline: {
    make: () => undefined,
    verify: async () => undefined,
    modelName: () => undefined,
    baseUrl: () => null,
    available: () => true,
  },
};

export function isPolicy(name: string): name is PolicyName {
  return (POLICIES as string[]).includes(name);
}

/** The policy's model for either role; undefined for the offline policy, whose caller makes its scripted agent. */
export function policyModel(settings: ModelSettings): Model | undefined {
  return TABLE[settings.policy].make(settings);
}

export function verifyPolicy(settings: ModelSettings): Promise<void> {
  return TABLE[settings.policy].verify(settings);
}

/** The model's name; `offline` is the name of the offline agent a caller plays instead. */
export function policyModelName(settings: ModelSettings, offline: string): string {
  return TABLE[settings.policy].modelName(settings) ?? offline;
}

export function identityOf(settings: ModelSettings, offline: string): ModelIdentity {
  return { policy: settings.policy, model: policyModelName(settings, offline), baseUrl: TABLE[settings.policy].baseUrl(settings) };
}

/** Whether the policy plays a model over the network (and so can write features, reports and categories). */
export function usesModel(policy: PolicyName): boolean {
  return policy !== 'offline';
}

export function availablePolicies(env: NodeJS.ProcessEnv = process.env): PolicyName[] {
  return POLICIES.filter((p) => TABLE[p].available(env));
}

/** `anthropic` when its key is set, else `openai` when a server is configured, else `offline`. */
export function defaultPolicy(env: NodeJS.ProcessEnv = process.env): PolicyName {
  return availablePolicies(env)[0] ?? 'offline';
}
