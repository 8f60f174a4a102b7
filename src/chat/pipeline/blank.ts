import { plain } from '../../kernel/rich/index.ts';
import { step, type MessageContext, type Step } from './step.ts';

/** Words of nothing but blank space reach no agent. A chat app sends no such message, but a modified client can: it is answered, not dropped. */
export function blank(): Step<MessageContext> {
  return step('blank', async ({ message, reply }, next) => {
    if (message.text.trim()) return next();
    await reply(plain('This message holds only blank space, so nothing went to the agent.'));
  });
}
