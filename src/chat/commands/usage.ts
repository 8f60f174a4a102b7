import { chatKey, personOf } from '../../kernel/ports/chat.ts';
import { usageText } from '../../work/presentation/usage.ts';
import { utcDay } from '../../engine/usage/usage-ledger.ts';
import type { Command } from '../dispatch/command.ts';

/**
 * /usage: what this chat's turns and runs cost, today and in total, by CLI and model, and what
 * the person asking spent today across chats; an admin sees each person's spend in this chat,
 * an owner everyone's across chats.
 */
export const usage: Command = {
  name: 'usage',
  description: "What this chat's turns and runs cost, today and in total, and your own spend",
  usage: '/usage',
  async run({ services: { ledger, budget, personBudget }, bot, chat, message }) {
    const now = Date.now();
    const day = utcDay(now);
    const key = chatKey(chat.address);
    const report = ledger.report(key, now);
    const me = personOf(chat.address, message.user);
    const role = bot.allowlist.roleOf(chat.address, message.user);
    return usageText({
      day,
      ...report,
      ...(budget.limitUsd !== undefined ? { budget: { limitUsd: budget.limitUsd } } : {}),
      person: {
        costUsd: ledger.personCostOn(me.key, day),
        hereUsd: ledger.people({ day, chatKeys: [key] }).find((spend) => spend.key === me.key)?.tally.costUsd ?? 0,
        limitUsd: personBudget?.limitUsd,
      },
      ...(role === 'admin' || role === 'owner' ? { people: ledger.people({ day, chatKeys: [key] }) } : {}),
      ...(role === 'owner' ? { everyone: ledger.people({ day }) } : {}),
    });
  },
};
