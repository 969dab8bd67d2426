/** Which policy drives the agents (the table is agent/policies.ts), and asking a model for text outside an agent loop (reports, categories). */
import { Budget, BudgetExhaustedError, SpendGate } from '../agent/budget.js';
import type { Model } from '../agent/model.js';
import { policyModel, type ModelSettings } from '../agent/policies.js';

export { defaultPolicy, POLICIES, type ModelSettings, type PolicyName } from '../agent/policies.js';

/** The model of a policy that plays one; undefined for the offline one. */
export function textModel(settings: ModelSettings): Model | undefined {
  return policyModel(settings);
}

/** One answer of a model to one prompt, with what it cost; a `budget` (the run's) is kept like an agent's turn. */
export async function askModel(model: Model, ask: { system: string; prompt: string }, limits: { signal?: AbortSignal; budget?: Budget } = {}): Promise<{ text: string; costUsd: number }> {
  const { system, prompt } = ask;
  const { signal, budget } = limits;
  if (budget?.exhausted) throw new BudgetExhaustedError(`the run spent its $${budget.limitUsd} budget`);
  const request = { system, messages: [{ role: 'user' as const, content: prompt }], tools: [] };
  const gate = await SpendGate.open(model, request, [budget]);
  let costUsd: number;
  let turn;
  try {
    turn = await model.query({ ...request, gate }, {}, signal);
    costUsd = model.costOf(turn.usage);
  } catch (error) {
    gate?.release();
    throw error;
  }
  if (gate) gate.settle(costUsd);
  else budget?.add(costUsd);
  const text = turn.content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('')
    .trim();
  return { text, costUsd };
}
