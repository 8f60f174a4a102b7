import { chatKey } from '../../ports/transport.ts';
import { usageText } from '../../presentation/usage.ts';
import type { DailyBudget } from '../../usage/budget.ts';
import { utcDay, type UsageLedger } from '../../usage/usage-ledger.ts';
import type { Bridge } from '../bridge.ts';

/** /usage: what this chat's turns and runs cost, today and in total, by CLI and model. */
export function installUsageCommand(bridge: Bridge, ledger: UsageLedger, budget: DailyBudget): void {
  bridge.command('usage', async ({ chat, reply }) => {
    const now = Date.now();
    const report = ledger.report(chatKey(chat.address), now);
    await reply(usageText({ day: utcDay(now), ...report, ...(budget.limitUsd !== undefined ? { budget: { limitUsd: budget.limitUsd } } : {}) }));
  });
}
