import { describe, expect, it } from 'vitest';
import { costOf, priceOf } from '../../../src/agent/pricing.js';

describe('pricing', () => {
  it('prices by model family, with cache writes at 1.25x and reads at 0.1x input', () => {
    const sonnet = priceOf('claude-sonnet-5-5', {});
    expect(sonnet).toEqual({ inputPerMTok: 3, outputPerMTok: 15 });
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000 };
    expect(costOf(sonnet, usage)).toBeCloseTo(3 + 1.5 + 0.3 + 3.75);
  });
  it('prices unknown models conservatively, and honours an override', () => {
    expect(priceOf('claude-mythos-5', {})).toEqual({ inputPerMTok: 15, outputPerMTok: 75 });
    expect(priceOf('anything', { BUGBENCH_PRICE_INPUT: '2', BUGBENCH_PRICE_OUTPUT: '8' })).toEqual({ inputPerMTok: 2, outputPerMTok: 8 });
  });
});
