/**
 * Dollar cost of model usage, from list prices per million tokens. Cache writes
 * cost 1.25× input and cache reads 0.1× input. Unknown models are priced as the
 * most expensive family so a budget errs on the safe side; set
 * BUGBENCH_PRICE_INPUT and BUGBENCH_PRICE_OUTPUT (dollars per million tokens) to override.
 */
import type { Usage } from './events.js';

export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}

const FAMILIES: [RegExp, Price][] = [
  [/haiku/, { inputPerMTok: 1, outputPerMTok: 5 }],
  [/sonnet/, { inputPerMTok: 3, outputPerMTok: 15 }],
  [/opus-(4-[5-9]|5)/, { inputPerMTok: 5, outputPerMTok: 25 }],
];
const CONSERVATIVE: Price = { inputPerMTok: 15, outputPerMTok: 75 };

export function priceOf(model: string, env: NodeJS.ProcessEnv = process.env): Price {
  const input = Number(env.BUGBENCH_PRICE_INPUT);
  const output = Number(env.BUGBENCH_PRICE_OUTPUT);
  if (input > 0 && output > 0) return { inputPerMTok: input, outputPerMTok: output };
  return FAMILIES.find(([pattern]) => pattern.test(model))?.[1] ?? CONSERVATIVE;
}

export function costOf(price: Price, usage: Usage): number {
  const perToken = price.inputPerMTok / 1e6;
  return (
    usage.inputTokens * perToken +
    usage.cacheWriteTokens * perToken * 1.25 +
    usage.cacheReadTokens * perToken * 0.1 +
    usage.outputTokens * (price.outputPerMTok / 1e6)
  );
}
