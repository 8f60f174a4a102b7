import { sum, type CostlyRun, type PersonSpend, type Tally } from '../../engine/usage/usage-ledger.ts';
import { formatCost, formatDuration, formatTokens } from './progress.ts';
import { titled, type RichText } from '../../kernel/rich/index.ts';
import { personLabel } from '../access/people-seen.ts';

export interface UsageView {
  day: string;
  today: Record<string, Tally>;
  total: Record<string, Tally>;
  costliest: CostlyRun[];
  budget?: { limitUsd: number };
  /** The asker's own spend today: across chats, here, and their daily budget. */
  person?: { costUsd: number; hereUsd: number; limitUsd?: number };
  /** Each person's spend in this chat today (an admin's and an owner's view). */
  people?: PersonSpend[];
  /** Each person's spend across chats today (an owner's view). */
  everyone?: PersonSpend[];
}

/** /usage: today and all time, each by CLI and model, the costliest runs, and the budget. */
export function usageText(view: UsageView): RichText {
  const lines: string[] = [];
  const section = (title: string, tallies: Record<string, Tally>) => {
    const entries = Object.entries(tallies).sort(([, a], [, b]) => b.costUsd - a.costUsd);
    lines.push(`${title}: ${entries.length ? describe(sum(entries.map(([, t]) => t))) : 'nothing yet'}`);
    if (entries.length > 1 || (entries.length === 1 && title !== 'Today')) for (const [key, tally] of entries) lines.push(`  ${key}: ${describe(tally)}`);
  };
  section(`Today (${view.day} UTC)`, view.today);
  if (view.budget) {
    const spent = sum(Object.values(view.today)).costUsd;
    lines.push(
      `Daily budget: ${formatCost(spent)} of ${formatCost(view.budget.limitUsd)} (${Math.floor((spent / view.budget.limitUsd) * 100)} %), resets at 00:00 UTC`,
    );
  }
  section('All time', view.total);
  if (view.costliest.length) {
    lines.push('Costliest runs:');
    for (const run of view.costliest) lines.push(`  #${run.number} ${run.label}: ${formatCost(run.costUsd)} (${run.day})`);
  }
  if (view.person) {
    const { costUsd, hereUsd, limitUsd } = view.person;
    const of =
      limitUsd === undefined ? '' : ` of your daily budget of ${formatCost(limitUsd)} (${Math.floor((costUsd / limitUsd) * 100)} %), resets at 00:00 UTC`;
    lines.push(`You today: ${formatCost(costUsd)} across chats, ${formatCost(hereUsd)} here${of}`);
  }
  const spenders = (title: string, spends: PersonSpend[]) => {
    lines.push(`${title}: ${spends.length ? '' : 'nobody has spent anything'}`.trimEnd());
    for (const spend of spends) lines.push(`  ${personLabel(spend.key, spend.name)}: ${describe(spend.tally)}`);
  };
  if (view.people) spenders('People in this chat today', view.people);
  if (view.everyone) spenders('Everyone today, across chats', view.everyone);
  return titled('💰 Usage of this chat', lines.join('\n'));
}

function describe(tally: Tally): string {
  const work = [tally.turns ? `${tally.turns} turn${tally.turns === 1 ? '' : 's'}` : '', tally.runs ? `${tally.runs} run${tally.runs === 1 ? '' : 's'}` : '']
    .filter(Boolean)
    .join(', ');
  return `${formatCost(tally.costUsd)} · ${work || 'no work'} · ${formatTokens(tally.inputTokens)} in / ${formatTokens(tally.outputTokens)} out`;
}

/** Why new work is refused: the day's budget is spent. */
export function budgetRefusalText(spentUsd: number, limitUsd: number, untilResetMs: number): string {
  return `💸 This chat has spent ${formatCost(spentUsd)} today, its daily budget of ${formatCost(limitUsd)} (BRIDGE_DAILY_BUDGET_USD). New turns and subagents wait until it resets at 00:00 UTC, in ${formatDuration(untilResetMs)}; what is running finishes.`;
}

/** A turn its budget stopped (a webhook's `budget`): what it had cost. */
export function costStopText(costUsd: number, budgetUsd: number): string {
  return `💸 Stopped for cost: this turn had cost ${formatCost(costUsd)}, reaching its budget of ${formatCost(budgetUsd)}. What it did so far is above; the session goes on with the next message.`;
}

/** Why a person's new work is refused: their day's budget is spent, across chats. */
export function personBudgetRefusalText(name: string | undefined, spentUsd: number, limitUsd: number, untilResetMs: number): string {
  return `💸 ${name ? `${name}, you have` : 'You have'} spent ${formatCost(spentUsd)} today across chats, your daily budget of ${formatCost(limitUsd)} (BRIDGE_PERSON_DAILY_BUDGET_USD). Your new turns and subagents wait until it resets at 00:00 UTC, in ${formatDuration(untilResetMs)}; what is running finishes.`;
}

/** Said once a day, in the chat where it happened, when a person's spending passes 80 % of their budget. */
export function personBudgetWarningText(name: string | undefined, spentUsd: number, limitUsd: number): string {
  const state = spentUsd >= limitUsd ? 'reached' : `used ${Math.floor((spentUsd / limitUsd) * 100)} % of`;
  return `💸 ${name ?? 'This person'} has ${state} their daily budget across chats: ${formatCost(spentUsd)} of ${formatCost(limitUsd)} today. It resets at 00:00 UTC.`;
}

/** Said once a day, when the chat's spending passes 80 % of its budget. */
export function budgetWarningText(spentUsd: number, limitUsd: number): string {
  const state = spentUsd >= limitUsd ? 'reached' : `used ${Math.floor((spentUsd / limitUsd) * 100)} % of`;
  return `💸 This chat has ${state} its daily budget: ${formatCost(spentUsd)} of ${formatCost(limitUsd)} today. It resets at 00:00 UTC.`;
}
