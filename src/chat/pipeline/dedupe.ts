import { step, type MessageContext, type Step } from './step.ts';

/** A message the transport gives again after a restart (it could not know it was taken) is handled once. */
export function dedupe(): Step<MessageContext> {
  return step('dedupe', async ({ message, chat }, next) => {
    if (message.messageId !== undefined && chat.messages.hasTaken(message.messageId)) return;
    await chat.remember(message.chatTitle);
    await next();
  });
}
