import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { CostMeter } from './cost-meter.ts';

/**
 * Work held to a budget as its CLI streams, the one way for a chat's turn and a run alike:
 * priced by its meter, and stopped once (as Stop stops it: the CLI's interrupt) when its cost
 * reaches the budget. What it did so far is its result. With no budget it is only priced.
 */
export class CostCap {
  private stoppedAt: number | undefined;

  constructor(
    readonly meter: CostMeter,
    private readonly budgetUsd: number | undefined,
    private readonly stop: () => void,
  ) {}

  observe(event: AgentEvent): void {
    const usd = this.meter.observe(event);
    if (this.budgetUsd === undefined || this.stoppedAt !== undefined || usd < this.budgetUsd) return;
    this.stoppedAt = usd;
    this.stop();
  }

  /** What it cost, stopped at its budget (what it spent while stopping included); undefined: the budget did not stop it. */
  get stoppedFor(): number | undefined {
    return this.stoppedAt === undefined ? undefined : Math.max(this.stoppedAt, this.meter.usd);
  }
}
