/** Spending limits: one per rollout (a hard cap on requests) and one shared by a whole run. */
export class Budget {
  spentUsd = 0;

  constructor(readonly limitUsd: number = Number.POSITIVE_INFINITY) {}

  get exhausted(): boolean {
    return this.spentUsd >= this.limitUsd;
  }

  add(usd: number): void {
    this.spentUsd += usd;
  }
}
