import { describe, expect, it } from 'vitest';
import { affordableTokens, Budget, BudgetExhaustedError, MIN_TURN_TOKENS, ratesOf, SpendGate } from '../../../src/agent/budget.js';
import { EventStream } from '../../../src/agent/events.js';
import { runAgent } from '../../../src/agent/loop.js';
import type { Model, ModelRequest, ModelTurn } from '../../../src/agent/model.js';
import { Rng } from '../../../src/agent/offline/rng.js';
import { costOf, type Price } from '../../../src/agent/pricing.js';
import { INPUT_MARGIN } from '../../../src/agent/tokens.js';
import type { ToolResult, Tools } from '../../../src/agent/tools.js';

const rates = { input: 3e-6, output: 15e-6 };
const between = (rng: Rng, lo: number, hi: number) => lo + rng.int(hi - lo + 1);

describe('the budget rule', () => {
  it('lowers max_tokens to what is left, and refuses a request whose input or a short answer does not fit', () => {
    // $0.10 left, 1000 input tokens ($0.003): room for 6466 output tokens.
    expect(affordableTokens(8192, 1000, rates, 0.1)).toBe(6466);
    expect(affordableTokens(4096, 1000, rates, 0.1)).toBe(4096);
    expect(affordableTokens(8192, 1000, rates, 0.003 + MIN_TURN_TOKENS * 15e-6)).toBe(MIN_TURN_TOKENS);
    expect(affordableTokens(8192, 1000, rates, 0.003 + (MIN_TURN_TOKENS - 1) * 15e-6)).toBeUndefined();
    expect(affordableTokens(8192, 40_000, rates, 0.1)).toBeUndefined();
    // A turn that wants less than the floor may have what it wants.
    expect(affordableTokens(100, 1000, rates, 0.003 + 100 * 15e-6)).toBe(100);
    // A model that costs nothing is never held back.
    expect(affordableTokens(8192, 1e9, { input: 0, output: 0 }, 0)).toBe(8192);
  });

  it('takes the dearest input price (a cache write) from the model, and holds the worst case until the turn settles', () => {
    const model = { costOf: (u: Parameters<typeof costOf>[1]) => costOf({ inputPerMTok: 3, outputPerMTok: 15 }, u) };
    expect(ratesOf(model).input).toBeCloseTo(3.75e-6);
    expect(ratesOf(model).output).toBeCloseTo(15e-6);
    const run = new Budget(0.25);
    const gate = new SpendGate([new Budget(), run], ratesOf(model), 10_000, (t) => t.length);
    const tokens = gate.admit(8192);
    expect(tokens).toBe(8192);
    expect(run.heldUsd).toBeCloseTo(10_000 * 3.75e-6 + 8192 * 15e-6);
    // A second request of the same size would go past what is left while the first is held.
    const other = new SpendGate([run], ratesOf(model), 10_000, (t) => t.length);
    expect(other.admit(8192)).toBeLessThan(8192);
    other.release();
    gate.broke('x'.repeat(100));
    expect(run.heldUsd).toBeCloseTo(0);
    expect(run.spentUsd).toBeCloseTo(10_000 * 3.75e-6 + 100 * 15e-6);
    gate.admit(8192);
    gate.settle(0.01);
    expect(run.heldUsd).toBeCloseTo(0);
    expect(run.spentUsd).toBeCloseTo(10_000 * 3.75e-6 + 100 * 15e-6 + 0.01);
    const broke = new SpendGate([new Budget(0.001)], ratesOf(model), 10_000, (t) => t.length);
    expect(() => broke.admit(8192)).toThrow(BudgetExhaustedError);
  });
});

/** Tools whose outputs grow the conversation by a random amount. */
class GrowingTools implements Tools {
  definitions = [{ name: 'bash', description: 'run', input_schema: { type: 'object' } }];
  constructor(private readonly rng: Rng) {}
  async execute(): Promise<ToolResult> {
    return { output: 'line of output '.repeat(between(this.rng, 0, 400)), isError: false, exitCode: 0 };
  }
}

/**
 * A model that honours the gate the way the real ones do, answers with the most
 * tokens it may, sometimes loses a request mid-stream (retried), and reports an
 * input its server counted at up to the margin's worth more than the text alone.
 */
class GreedyModel implements Model {
  readonly name = 'greedy';
  constructor(
    private readonly price: Price,
    private readonly rng: Rng,
  ) {}
  costOf(usage: Parameters<Model['costOf']>[0]): number {
    return costOf(this.price, usage);
  }
  async query(request: ModelRequest): Promise<ModelTurn> {
    for (;;) {
      const maxTokens = request.gate ? request.gate.admit(between(this.rng, 500, 8192)) : 8192;
      await new Promise((r) => setTimeout(r, between(this.rng, 0, 2)));
      if (this.rng.next() < 0.15) {
        request.gate?.broke('partial answer '.repeat(between(this.rng, 0, 50)));
        continue;
      }
      const input = Math.floor(((request.gate?.inputTokens ?? 1000) / INPUT_MARGIN) * (0.8 + 0.2 * this.rng.next()));
      const written = Math.floor(input * this.rng.next() * 0.5);
      const usage = { inputTokens: input - written, cacheWriteTokens: written, cacheReadTokens: 0, outputTokens: maxTokens };
      return { content: [{ type: 'tool_use', id: `t${between(this.rng, 0, 1e9)}`, name: 'bash', input: { command: 'true' } }], usage, stopReason: 'tool_use' };
    }
  }
}

describe('the caps hold over many seeds', () => {
  it('never lets the rollouts of a run spend past --budget or --run-budget, however they interleave', async () => {
    let worst = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const rng = new Rng(seed);
      const price = { inputPerMTok: 0.1 + rng.next() * 15, outputPerMTok: 0.5 + rng.next() * 75 };
      const run = new Budget(0.01 + rng.next() * 0.4);
      const rollouts = Array.from({ length: between(rng, 1, 4) }, () => new Budget(rng.next() < 0.3 ? Number.POSITIVE_INFINITY : 0.005 + rng.next() * 0.3));
      const results = await Promise.all(
        rollouts.map((budget, i) =>
          runAgent({
            model: new GreedyModel(price, new Rng(seed * 10 + i)),
            tools: new GrowingTools(new Rng(seed * 100 + i)),
            system: 'You test budgets.',
            task: 'Spend.',
            maxSteps: 500,
            stream: new EventStream(),
            budget,
            runBudget: run,
          }),
        ),
      );
      for (const [i, budget] of rollouts.entries()) {
        expect(budget.spentUsd, `seed ${seed} rollout ${i}`).toBeLessThanOrEqual(budget.limitUsd + 1e-12);
        expect(results[i]!.reason).toBe('budget');
      }
      expect(run.spentUsd, `seed ${seed} run`).toBeLessThanOrEqual(run.limitUsd + 1e-12);
      expect(run.heldUsd).toBeCloseTo(0);
      worst = Math.max(worst, run.spentUsd / run.limitUsd, ...rollouts.map((b) => b.spentUsd / b.limitUsd));
    }
    // The caps bind: some run comes close to its limit.
    expect(worst).toBeGreaterThan(0.8);
  }, 60_000);
});
