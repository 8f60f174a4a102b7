import { chatKey } from '../ports/transport.ts';
import { usageText } from '../presentation/usage.ts';
import { utcDay } from '../usage/usage-ledger.ts';
import type { Command } from '../bridge/command.ts';

/** /usage: what this chat's turns and runs cost, today and in total, by CLI and model. */
export const usage: Command = {
  name: 'usage',
  description: "What this chat's turns and runs cost, today and in total",
  usage: '/usage',
  access: 'member',
  async run({ services: { ledger, budget }, chat, reply }) {
    const now = Date.now();
    const report = ledger.report(chatKey(chat.address), now);
    await reply(usageText({ day: utcDay(now), ...report, ...(budget.limitUsd !== undefined ? { budget: { limitUsd: budget.limitUsd } } : {}) }));
  },
};
