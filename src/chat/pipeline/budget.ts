import { chatKey, userKey } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { WorkBudget } from '../people/spending.ts';
import { step, type MessageContext, type Step } from './step.ts';

/** A chat, or a person, past its daily budget starts no turn: the person is told why, and until when. */
export function budget(parts: { budget: WorkBudget | undefined }): Step<MessageContext> {
  return step('budget', async ({ chat, message, reply }, next) => {
    const refused = parts.budget?.refusal(chatKey(chat.address), userKey(chat.address.transport, message.user));
    if (!refused) return next();
    await reply(plain(refused));
  });
}
