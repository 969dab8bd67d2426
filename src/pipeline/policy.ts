/** Which policy drives the agents, and asking a model for text outside an agent loop (reports, categories). */
import { AnthropicModel, DEFAULT_MODEL } from '../agent/anthropic-model.js';
import type { Model } from '../agent/model.js';

export type PolicyName = 'anthropic' | 'offline';
export const POLICIES: PolicyName[] = ['anthropic', 'offline'];

export function defaultPolicy(env: NodeJS.ProcessEnv = process.env): PolicyName {
  return env.ANTHROPIC_API_KEY ? 'anthropic' : 'offline';
}

export interface ModelSettings {
  policy: PolicyName;
  model?: string;
  maxTokens?: number;
}

/** The model of an `anthropic` policy; undefined for the offline one. */
export function textModel(settings: ModelSettings): Model | undefined {
  return settings.policy === 'anthropic' ? new AnthropicModel({ model: settings.model ?? DEFAULT_MODEL, maxTokens: settings.maxTokens }) : undefined;
}

/** One answer of a model to one prompt, with what it cost. */
export async function askModel(model: Model, system: string, prompt: string, signal?: AbortSignal): Promise<{ text: string; costUsd: number }> {
  const turn = await model.query({ system, messages: [{ role: 'user', content: prompt }], tools: [] }, {}, signal);
  const text = turn.content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('')
    .trim();
  return { text, costUsd: model.costOf(turn.usage) };
}
