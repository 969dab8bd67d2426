/**
 * Spending limits — one per rollout and one shared by a whole run — and the
 * one rule that keeps them: a request goes out only when its worst case fits
 * in what is left of every limit. The worst case is its input (counted with
 * the tokenizer, with a margin) at the dearest input price plus the
 * `max_tokens` it asks for, which is lowered to what is left. The worst case is
 * held on the limits while the request runs, so rollouts sharing a run's limit
 * cannot together go past it; the turn's real cost replaces it at the end.
 */
import { BugbenchError } from '../errors.js';
import type { Usage } from './events.js';
import type { Model, ModelRequest, TurnGate } from './model.js';
import { requestTokens, tokenCounter, type TokenCounter } from './tokens.js';

export class Budget {
  spentUsd = 0;
  /** Held for requests under way: their worst case. */
  heldUsd = 0;

  constructor(readonly limitUsd: number = Number.POSITIVE_INFINITY) {}

  get exhausted(): boolean {
    return this.spentUsd >= this.limitUsd;
  }

  get leftUsd(): number {
    return this.limitUsd - this.spentUsd - this.heldUsd;
  }

  add(usd: number): void {
    this.spentUsd += usd;
  }
}

/** A request that would not fit in what is left: the rollout ends with reason `budget`. */
export class BudgetExhaustedError extends BugbenchError {
  constructor(message: string) {
    super('BB_BUDGET', message);
  }
}

/** Dollars per token: input at its dearest (a cache write costs more than plain input), and output. */
export interface Rates {
  input: number;
  output: number;
}

const MTOK = 1_000_000;
const ZERO: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export function ratesOf(model: Pick<Model, 'costOf'>): Rates {
  const per = (usage: Partial<Usage>) => model.costOf({ ...ZERO, ...usage }) / MTOK;
  return {
    input: Math.max(per({ inputTokens: MTOK }), per({ cacheWriteTokens: MTOK }), per({ cacheReadTokens: MTOK })),
    output: per({ outputTokens: MTOK }),
  };
}

/** A turn asks for fewer tokens than this only when it asks for fewer anyway; below it the rollout ends. */
export const MIN_TURN_TOKENS = 256;

/**
 * The rule itself, pure: the `max_tokens` a request may ask for, given what it
 * wants, its input's worst count and what is left; undefined when not even a
 * short answer fits.
 */
export function affordableTokens(wanted: number, inputTokens: number, rates: Rates, leftUsd: number): number | undefined {
  const room = leftUsd - inputTokens * rates.input;
  if (room < 0) return undefined;
  const tokens = rates.output > 0 ? Math.min(wanted, Math.floor(room / rates.output)) : wanted;
  return tokens >= Math.min(wanted, MIN_TURN_TOKENS) && tokens > 0 ? tokens : undefined;
}

/**
 * One turn's admission to its limits. A model calls `admit` before each
 * request of the turn (a retry is a request too) and `broke` when a request
 * ended without an answer after the server began it; the caller calls
 * `settle` with the turn's cost, or `release` when it failed.
 */
export class SpendGate implements TurnGate {
  private held = 0;

  constructor(
    private readonly budgets: Budget[],
    private readonly rates: Rates,
    /** The request's input, counted with the margin. */
    readonly inputTokens: number,
    private readonly count: TokenCounter,
  ) {}

  /** A gate for this request over all the given limits, or undefined when nothing limits it (no finite limit, or a model that costs nothing). */
  static async open(model: Pick<Model, 'costOf'>, request: ModelRequest, budgets: (Budget | undefined)[]): Promise<SpendGate | undefined> {
    const all = budgets.filter((b): b is Budget => b !== undefined);
    const rates = ratesOf(model);
    if (!all.some((b) => Number.isFinite(b.limitUsd)) || (rates.input === 0 && rates.output === 0)) return undefined;
    const count = await tokenCounter();
    return new SpendGate(all, rates, requestTokens(request, count), count);
  }

  /** The max_tokens of the next request (at most `wanted`), its worst case held on every limit; throws BudgetExhaustedError when it does not fit. */
  admit(wanted: number): number {
    this.release();
    const left = Math.min(...this.budgets.map((b) => b.leftUsd));
    const tokens = affordableTokens(wanted, this.inputTokens, this.rates, left);
    if (tokens === undefined) {
      const limit = this.budgets.reduce((a, b) => (b.leftUsd < a.leftUsd ? b : a));
      throw new BudgetExhaustedError(
        `the next request (about ${this.inputTokens} input tokens and an answer of up to ${Math.min(wanted, MIN_TURN_TOKENS)}) would not fit in the $${Math.max(0, limit.leftUsd).toFixed(4)} left of the $${limit.limitUsd} budget`,
      );
    }
    this.held = this.inputTokens * this.rates.input + tokens * this.rates.output;
    for (const b of this.budgets) b.heldUsd += this.held;
    return tokens;
  }

  /** A request the server began and then lost: its input and the output that arrived are spent. */
  broke(received: string): void {
    this.release();
    const usd = this.inputTokens * this.rates.input + this.count(received) * this.rates.output;
    for (const b of this.budgets) b.add(usd);
  }

  release(): void {
    for (const b of this.budgets) b.heldUsd -= this.held;
    this.held = 0;
  }

  /** The turn is over: its real cost replaces what was held. */
  settle(usd: number): void {
    this.release();
    for (const b of this.budgets) b.add(usd);
  }
}
