import { ConfigError } from '../../kernel/errors/config-error.ts';
import { utcDay, type UsageLedger } from './usage-ledger.ts';

export interface BudgetSettings {
  /** Per chat and UTC day; none: no limit. */
  dailyBudgetUsd: number | undefined;
  /** Per person and UTC day, across chats (BRIDGE_PERSON_DAILY_BUDGET_USD); none: no limit. */
  personDailyBudgetUsd: number | undefined;
}

export function budgetSettings(env: NodeJS.ProcessEnv): BudgetSettings {
  return { dailyBudgetUsd: dollars(env, 'BRIDGE_DAILY_BUDGET_USD'), personDailyBudgetUsd: dollars(env, 'BRIDGE_PERSON_DAILY_BUDGET_USD') };
}

function dollars(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0) throw new ConfigError(`${name}: expected an amount of US dollars above 0, like 5 or 2.50, got "${raw}"`);
  return Number(raw);
}

/** The share of the budget at which the chat is warned, once a day. */
const WARN_AT = 0.8;

/**
 * A chat's daily spending limit (BRIDGE_DAILY_BUDGET_USD): once its UTC day's cost reaches
 * it, new turns and spawns are refused until midnight UTC; work already running finishes.
 */
export class DailyBudget {
  constructor(
    protected readonly ledger: UsageLedger,
    readonly limitUsd: number | undefined,
  ) {}

  /** What `key` (a chat's) spent on `day`. */
  protected costOn(key: string, day: string): number {
    return this.ledger.costOn(key, day);
  }

  /** The day's spending when it has reached the limit (new work is refused), else undefined. */
  spent(key: string, now = Date.now()): number | undefined {
    if (this.limitUsd === undefined) return undefined;
    const spent = this.costOn(key, utcDay(now));
    return spent >= this.limitUsd ? spent : undefined;
  }

  /** What is left today, when there is a limit. */
  left(key: string, now = Date.now()): number | undefined {
    return this.limitUsd === undefined ? undefined : Math.max(0, this.limitUsd - this.costOn(key, utcDay(now)));
  }

  /** Whether a cost just took the day past 80 % of the limit: the chat is told once. */
  crossedWarning(before: number, after: number): boolean {
    return this.limitUsd !== undefined && before < this.limitUsd * WARN_AT && after >= this.limitUsd * WARN_AT;
  }
}

/**
 * A person's daily spending limit across chats (BRIDGE_PERSON_DAILY_BUDGET_USD): once their
 * UTC day's cost reaches it, their new turns and spawns are refused until midnight UTC; work
 * already running finishes (a run with a budget of its own stops at what their day had left).
 */
export class PersonDailyBudget extends DailyBudget {
  protected override costOn(person: string, day: string): number {
    return this.ledger.personCostOn(person, day);
  }
}

/** How long until the budget resets at midnight UTC. */
export function msUntilReset(now = Date.now()): number {
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return midnight.getTime() - now;
}
