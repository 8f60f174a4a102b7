import { ConfigError } from '../../kernel/errors/config-error.ts';
import { utcDay } from './usage-ledger.ts';

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
 * A daily spending limit, a chat's (BRIDGE_DAILY_BUDGET_USD) or a person's across chats
 * (BRIDGE_PERSON_DAILY_BUDGET_USD): once its UTC day's cost reaches it, new turns and spawns are
 * refused until midnight UTC; work already running finishes (a run with a budget of its own
 * stops at what the person's day had left).
 */
export class DailyBudget {
  constructor(
    /** What a key (a chat's, or a person's) spent on a UTC day. */
    private readonly costOn: (key: string, day: string) => number,
    readonly limitUsd: number | undefined,
  ) {}

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

/** How long until the budget resets at midnight UTC. */
export function msUntilReset(now = Date.now()): number {
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return midnight.getTime() - now;
}
